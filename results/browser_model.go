package results

import (
	"math"
	"slices"
	"strings"

	"github.com/httpvs/httpvs/internal/stat"
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
	// Ratio is the browser's mean last-byte time over the model's.
	Ratio float64 `json:"ratio"`
	// LoadEventRatio is the browser's mean load-event time over the
	// model's: what the browser adds past the last byte (parsing, layout,
	// scripts) shows as its excess over Ratio. Not compared: the model has
	// no load event.
	LoadEventRatio float64 `json:"load_event_ratio"`
	// Verdict is ModelAgrees, ModelSlower or ModelFaster, of the last
	// byte's interval against the model's.
	Verdict string `json:"verdict"`
}

// ModelCheck verdicts: whether the browser's interval and the model's
// overlap, and if not, which way the browser lies.
const (
	ModelAgrees = "agrees"  // the intervals overlap
	ModelSlower = "slower"  // the browser's interval lies above the model's: it loads the page slower than the model
	ModelFaster = "faster"  // the browser's interval lies below the model's
	modelNone   = "unknown" // too few loads on a side to tell
)

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
		chk := &ModelCheck{Model: m, Ratio: bc.LastByte.Mean / m.Mean, LoadEventRatio: bc.LoadEvent.Mean / m.Mean}
		switch {
		case bc.LastByte.N < 2 || m.N < 2:
			chk.Verdict = modelNone
		case bc.LastByte.overlaps(m):
			chk.Verdict = ModelAgrees
		case bc.LastByte.Mean > m.Mean:
			chk.Verdict = ModelSlower
		default:
			chk.Verdict = ModelFaster
		}
		bc.Model = chk
	}
}
