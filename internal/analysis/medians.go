package analysis

import (
	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// sameRounds sets, in each scenario, the medians its table prints beside
// its ratios, each from the rounds its ratio used, and why they point
// against a verdict where they do. Rounds added to settle one column
// measure the baseline too: over all of them the baseline's median would
// come from rounds the others never saw, and can point the other way.
func sameRounds(res *results.Results) {
	for _, name := range res.ScenarioNames() {
		var cells []*results.Cell
		for i := range res.Cells {
			if c := &res.Cells[i]; c.Scenario == name {
				c.RoundsMedian, c.RoundsUsed, c.RoundsOf, c.MediansAgainst = nil, 0, 0, ""
				cells = append(cells, c)
			}
		}
		scenarioRounds(cells)
	}
}

// scenarioRounds does sameRounds for one scenario's cells.
func scenarioRounds(cells []*results.Cell) {
	base := baselineIn(cells)
	if base == nil {
		return
	}
	shared := map[int]int{} // round -> columns that paired in it
	others := 0
	for _, c := range cells {
		if c == base || c.Skipped != "" {
			continue
		}
		pairs := PairRounds(c, base)
		if len(pairs) == 0 {
			continue
		}
		others++
		var vs []float64
		for _, p := range pairs {
			vs = append(vs, p.Cell.Value)
			shared[p.Round]++
		}
		m := Median(vs)
		c.RoundsMedian, c.RoundsUsed = &m, len(vs)
	}
	var vs []float64
	for _, p := range PairRounds(base, base) {
		base.RoundsOf++
		if shared[p.Round] == others && others > 0 {
			vs = append(vs, p.Base.Value)
		}
	}
	if len(vs) > 0 {
		m := Median(vs)
		base.RoundsMedian, base.RoundsUsed = &m, len(vs)
	}
	for _, c := range cells {
		if c != base {
			c.MediansAgainst, c.AgainstBaseMedian = against(c, base)
		}
	}
}

// baselineIn is the scenario's baseline cell, as its cells name it (h1
// when none does); nil when it was not measured.
func baselineIn(cells []*results.Cell) *results.Cell {
	name := protoname.H1
	for _, c := range cells {
		if c.Baseline != "" {
			name = c.Baseline
			break
		}
	}
	for _, c := range cells {
		if c.Protocol == name && c.Skipped == "" {
			return c
		}
	}
	return nil
}

// median is c's median as the table prints it: over its ratio's rounds
// where it has one, else over its repetitions.
func median(c *results.Cell) float64 {
	if c.RoundsMedian != nil {
		return *c.RoundsMedian
	}
	return c.Median
}

// against says why c's printed median and the baseline's point the other
// way from c's verdict: "" when they agree (or there is no call);
// vocab.AgainstOtherRounds when the baseline's median over c's own
// rounds (bm) agrees; vocab.AgainstSameRounds when, over the very same
// rounds, the medians do not follow the rounds' ratios.
func against(c, base *results.Cell) (why string, bm float64) {
	if c.VsBaseline == nil {
		return "", 0
	}
	v := c.VsBaseline.Verdict
	if v != results.VerdictSlower && v != results.VerdictFaster {
		return "", 0
	}
	if faster(c, median(c), median(base)) == (v == results.VerdictFaster) {
		return "", 0
	}
	var cv, bv []float64
	for _, p := range PairRounds(c, base) {
		cv, bv = append(cv, p.Cell.Value), append(bv, p.Base.Value)
	}
	bm = Median(bv)
	if len(bv) > 0 && faster(c, Median(cv), bm) == (v == results.VerdictFaster) {
		return vocab.AgainstOtherRounds, bm
	}
	return vocab.AgainstSameRounds, 0
}

// faster says a cell reading cm beats a baseline reading bm in c's metric.
func faster(c *results.Cell, cm, bm float64) bool {
	if LowerIsBetter(c.Metric) {
		return cm < bm
	}
	return cm > bm
}
