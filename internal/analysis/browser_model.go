package analysis

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
	"gonum.org/v1/gonum/stat/distuv"
)

// newSpread is the spread of the positive values in vs.
func newSpread(vs []float64) results.Spread {
	var logs, pos []float64
	for _, v := range vs {
		if v > 0 {
			logs = append(logs, math.Log(v))
			pos = append(pos, v)
		}
	}
	s := results.Spread{N: len(logs)}
	if s.N == 0 {
		return s
	}
	slices.Sort(pos)
	s.Median = Median(pos)
	iv := LogInterval(logs) // the verdict's interval, on times
	s.Mean, s.Low, s.High = iv.Ratio, iv.Low, iv.High
	return s
}

// overlaps reports whether s's interval and o's share a value; a spread
// without an interval is its mean.
func overlaps(s, o results.Spread) bool {
	lo, hi := spreadBounds(s)
	olo, ohi := spreadBounds(o)
	return lo <= ohi && olo <= hi
}

// bounds is s's interval, or its mean at both ends without one.
func spreadBounds(s results.Spread) (float64, float64) {
	if s.N < 2 {
		return s.Mean, s.Mean
	}
	return s.Low, s.High
}

// ratioOver is a's mean over b's with its 95% interval, from two
// independent spreads (Welch: each side's standard error of its mean log,
// read back from its interval, and the Welch-Satterthwaite degrees of
// freedom); Low and High are 0 with fewer than two on a side.
func ratioOver(a, b results.Spread) results.Interval {
	iv := results.Interval{Ratio: a.Mean / b.Mean, Pairs: min(a.N, b.N)}
	if a.N < 2 || b.N < 2 || a.High <= 0 || b.High <= 0 {
		return iv
	}
	// LogInterval's half-width is t(n-1) times the standard error.
	sa := math.Log(a.High/a.Mean) / TQuantile975(a.N-1)
	sb := math.Log(b.High/b.Mean) / TQuantile975(b.N-1)
	va, vb := sa*sa, sb*sb
	half := 0.0
	if se2 := va + vb; se2 > 0 {
		df := se2 * se2 / (va*va/float64(a.N-1) + vb*vb/float64(b.N-1))
		half = distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(0.975) * math.Sqrt(se2)
	}
	d := math.Log(iv.Ratio)
	iv.Low, iv.High = math.Exp(d-half), math.Exp(d+half)
	return iv
}

// Summarise sets c's spreads and disagreements from its loads: the
// spreads over the loads that completed and agreed, those that disagreed
// counted in Excluded.
func SummariseBrowser(c *results.BrowserCell) {
	var load, last []float64
	var why []string
	seen := map[string]bool{}
	c.Excluded = 0
	for i := range c.Loads {
		ld := &c.Loads[i]
		if ld.Error != "" {
			continue
		}
		d := disagreements(ld, c.Protocol, c.Objects)
		for _, d := range d {
			if !seen[d] {
				seen[d] = true
				why = append(why, d)
			}
		}
		if len(d) > 0 {
			c.Excluded++
			continue
		}
		load = append(load, ld.LoadEventSeconds)
		last = append(last, ld.LastByteSeconds)
	}
	c.LoadEvent, c.LastByte = newSpread(load), newSpread(last)
	c.Disagrees = strings.Join(why, "; ")
}

// CompareModel holds each browser cell of res against page-load's cell
// over its transport, last byte with last byte, when the browser loaded
// page-load's page (samePage).
func CompareModel(res *results.Results, samePage bool) {
	for i := range res.Browser {
		bc := &res.Browser[i]
		bc.Model = nil
		mc := res.Cell("page-load", bc.Protocol)
		if !samePage || mc == nil || mc.Skipped != "" || bc.LastByte.N == 0 {
			continue
		}
		var vs []float64
		for _, rep := range mc.Repetitions {
			if !rep.Interrupted && rep.Errors.Total == 0 {
				vs = append(vs, rep.Value)
			}
		}
		m := newSpread(vs)
		if m.N == 0 {
			continue
		}
		iv := ratioOver(bc.LastByte, m)
		if iv.Low <= 0 {
			iv.Pairs = 0 // no interval on one side: no verdict
		}
		chk := &results.ModelCheck{Model: m, Ratio: iv.Ratio, Low: iv.Low, High: iv.High, LoadEventRatio: bc.LoadEvent.Mean / m.Mean}
		// judged calls a time ratio above 1 faster: judge the model's
		// time over the browser's, as the verdict does for times.
		switch judged(results.Interval{Ratio: 1 / iv.Ratio, Low: 1 / iv.High, High: 1 / iv.Low, Pairs: iv.Pairs}).Verdict {
		case results.VerdictSimilar:
			chk.Verdict = vocab.ModelAgrees
		case results.VerdictSlower:
			chk.Verdict = vocab.ModelSlower
		case results.VerdictFaster:
			chk.Verdict = vocab.ModelFaster
		case results.VerdictUndetermined:
			chk.Verdict = vocab.ModelUndetermined
		default:
			chk.Verdict = vocab.ModelNone
		}
		bc.Model = chk
	}
}

// disagreements says how ld disagreed with p, the page's objects and the
// server's counters; nil when it agreed throughout.
func disagreements(ld *results.BrowserLoad, p string, objects int) []string {
	var out []string
	if ld.Error != "" {
		return nil
	}
	if (objects > 0 && ld.Objects != objects) || ld.Failed > 0 {
		out = append(out, fmt.Sprintf("%d objects requested, %d failed (the page has %d)", ld.Objects, ld.Failed, objects))
	}
	var others []string
	for t, n := range ld.ByTransport {
		if t != p {
			others = append(others, fmt.Sprintf("%d over %s", n, t))
		}
	}
	if len(others) > 0 {
		slices.Sort(others)
		out = append(out, "objects "+strings.Join(others, ", "))
	}
	if ld.ServerRequests != nil {
		if got := int64(ld.ByTransport[p]); *ld.ServerRequests != got {
			out = append(out, fmt.Sprintf("the server counted %d requests over %s, the browser %d", *ld.ServerRequests, p, got))
		}
		if *ld.ServerConnections != int64(ld.Connections) {
			out = append(out, fmt.Sprintf("the server counted %d connections, the browser %d", *ld.ServerConnections, ld.Connections))
		}
		if *ld.ServerOther > 0 {
			out = append(out, fmt.Sprintf("the server counted %d requests over other transports", *ld.ServerOther))
		}
	}
	return out
}
