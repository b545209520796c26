package results

import (
	"math"
	"slices"
	"strings"

	"github.com/httpvs/httpvs/internal/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Spread is a time over several measurements, seconds: their geometric
// mean with its 95% interval (Student's t on the logarithms), their
// median, and how many there were.
type Spread struct {
	Mean   float64 `json:"mean"`
	Low    float64 `json:"low"`  // 0 with fewer than two values
	High   float64 `json:"high"` // 0 with fewer than two values
	Median float64 `json:"median"`
	N      int     `json:"n"`
}

// newSpread is the spread of the positive values in vs.
func newSpread(vs []float64) Spread {
	var logs, pos []float64
	for _, v := range vs {
		if v > 0 {
			logs = append(logs, math.Log(v))
			pos = append(pos, v)
		}
	}
	s := Spread{N: len(logs)}
	if s.N == 0 {
		return s
	}
	slices.Sort(pos)
	s.Median = stat.Median(pos)
	iv := LogInterval(logs) // the verdict's interval, on times
	s.Mean, s.Low, s.High = iv.Ratio, iv.Low, iv.High
	return s
}

// overlaps reports whether s's interval and o's share a value; a spread
// without an interval is its mean.
func (s Spread) overlaps(o Spread) bool {
	lo, hi := s.bounds()
	olo, ohi := o.bounds()
	return lo <= ohi && olo <= hi
}

// bounds is s's interval, or its mean at both ends without one.
func (s Spread) bounds() (float64, float64) {
	if s.N < 2 {
		return s.Mean, s.Mean
	}
	return s.Low, s.High
}

// ModelCheck holds the browser's last byte against page-load's model over
// the same transport (the model's figure is the time to the last object's
// last byte too), with the load event beside it.
type ModelCheck struct {
	// Model is page-load's time over its repetitions (each one's median
	// page), seconds, as Spread says.
	Model Spread `json:"model_seconds"`
	// Ratio is the browser's mean last-byte time over the model's, Low
	// and High its 95% interval (Welch's: the loads and the rounds are
	// not paired); Low and High are 0 with fewer than two on a side.
	Ratio float64 `json:"ratio"`
	Low   float64 `json:"low,omitempty"`
	High  float64 `json:"high,omitempty"`
	// LoadEventRatio is the browser's mean load-event time over the
	// model's: what the browser adds past the last byte (parsing, layout,
	// scripts) shows as its excess over Ratio. Not compared: the model has
	// no load event.
	LoadEventRatio float64 `json:"load_event_ratio"`
	// Verdict is the ratio's interval judged by the verdict's rule:
	// ModelAgrees, ModelSlower, ModelFaster or ModelUndetermined.
	Verdict string `json:"verdict"`
}

// ModelCheck verdicts, by the verdict's rule on the browser's time over
// the model's.
const (
	ModelAgrees       = "agrees"       // ≈: the interval holds 1 and excludes a difference of Matters (or lies within Negligible of 1)
	ModelSlower       = "slower"       // the interval lies above 1: the browser loads the page slower than the model
	ModelFaster       = "faster"       // the interval lies below 1
	ModelUndetermined = "undetermined" // the interval holds 1 but reaches a difference of Matters
	ModelNone         = "unknown"      // too few loads on a side to tell
)

// ratioOver is a's mean over b's with its 95% interval, from two
// independent spreads (Welch: each side's standard error of its mean log,
// read back from its interval, and the Welch-Satterthwaite degrees of
// freedom); Low and High are 0 with fewer than two on a side.
func ratioOver(a, b Spread) Interval {
	iv := Interval{Ratio: a.Mean / b.Mean, Pairs: min(a.N, b.N)}
	if a.N < 2 || b.N < 2 || a.High <= 0 || b.High <= 0 {
		return iv
	}
	// LogInterval's half-width is t(n-1) times the standard error.
	sa := math.Log(a.High/a.Mean) / stat.TQuantile975(a.N-1)
	sb := math.Log(b.High/b.Mean) / stat.TQuantile975(b.N-1)
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
func (c *BrowserCell) Summarise() {
	var load, last []float64
	var why []string
	seen := map[string]bool{}
	c.Excluded = 0
	for i := range c.Loads {
		ld := &c.Loads[i]
		if ld.Error != "" {
			continue
		}
		d := ld.disagreements(c.Protocol, c.Objects)
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
func CompareModel(res *Results, samePage bool) {
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
		chk := &ModelCheck{Model: m, Ratio: iv.Ratio, Low: iv.Low, High: iv.High, LoadEventRatio: bc.LoadEvent.Mean / m.Mean}
		// judged calls a time ratio above 1 faster: judge the model's
		// time over the browser's, as the verdict does for times.
		switch judged(Interval{Ratio: 1 / iv.Ratio, Low: 1 / iv.High, High: 1 / iv.Low, Pairs: iv.Pairs}).Verdict {
		case VerdictSimilar:
			chk.Verdict = ModelAgrees
		case VerdictSlower:
			chk.Verdict = ModelSlower
		case VerdictFaster:
			chk.Verdict = ModelFaster
		case VerdictUndetermined:
			chk.Verdict = ModelUndetermined
		default:
			chk.Verdict = ModelNone
		}
		bc.Model = chk
	}
}
