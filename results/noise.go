package results

import "math"

// AAColumn names the A/A column of a scenario: the baseline transport
// measured a second time, as a column of its own, in the same rounds and
// under the same order rules as every other column. Its interval to the
// baseline is the run's noise floor: the two are the same thing, so any
// difference it shows is the machine's and the method's.
func AAColumn(baseline string) string { return baseline + " A/A" }

// SetAA sets each A/A cell's interval to its scenario's baseline cell in
// cells (as SetRatios does for the others), and summarises it.
func SetAA(aa, cells []Cell, baseline string) {
	base := map[string]*Cell{}
	for i, c := range cells {
		if c.Protocol == baseline && c.Skipped == "" {
			base[c.Scenario] = &cells[i]
		}
	}
	for i := range aa {
		c := &aa[i]
		SummariseCell(c)
		c.VsH1, c.Baseline, c.RatioToH1 = nil, "", 0
		b := base[c.Scenario]
		if b == nil || c.Skipped != "" {
			continue
		}
		c.Baseline = baseline
		if b.Median > 0 && c.Median > 0 {
			c.RatioToH1 = c.Median / b.Median
			if LowerIsBetter(c.Metric) {
				c.RatioToH1 = b.Median / c.Median
			}
		}
		if iv := ratioInterval(c, b); iv.Pairs > 0 {
			c.VsH1 = &iv
		}
	}
}

// NoiseFloor is what a run's A/A cells say about its intervals.
type NoiseFloor struct {
	// Cells counts the A/A cells with an interval (two pairs or more).
	Cells int
	// Resolution is the largest relative distance from 1 of their 95%
	// intervals (0.06: [0.95, 1.06]): a difference beyond it would have
	// been told from none; 0 without an A/A interval.
	Resolution float64
	// FalseCalls counts the A/A cells called slower or faster: each is a
	// verdict where there is no difference (at 95%, about one in twenty is
	// expected by chance).
	FalseCalls int
}

// NoiseFloor summarises r's A/A cells.
func (r *Results) NoiseFloor() NoiseFloor {
	var n NoiseFloor
	for _, c := range r.AA {
		iv := c.VsH1
		if iv == nil || iv.Pairs < 2 || iv.Low <= 0 {
			continue
		}
		n.Cells++
		n.Resolution = math.Max(n.Resolution, math.Max(iv.High-1, 1-iv.Low))
		if iv.Verdict == VerdictSlower || iv.Verdict == VerdictFaster {
			n.FalseCalls++
		}
	}
	return n
}
