package matrix

import (
	"math"

	"github.com/httpvs/httpvs/internal/verdict"
)

// precise returns what a round of sr would be for once no cell of any
// scenario is open (open): the cells, the A/A column's alike, whose
// repeated confidence interval is wider than floor in log units
// (verdict.GeoHalfWidth) and that have fewer than maxRounds rounds, with
// the baseline; widest is the widest of them, in log units, which orders
// the scenarios (better: with need and gap zero, the wider first). False
// when none is. Measuring a decided cell further is valid because its
// intervals are repeated confidence intervals (Jennison and Turnbull,
// ch. 9): they hold at every look together, whatever rule chose the
// rounds, so the last look's is printed; its verdict word is the last
// decided one (verdict.RatioInterval).
func (sr *scenarioRun) precise(maxRounds int, floor float64, baseline string) (next, bool) {
	base := sr.baseline(baseline)
	if base < 0 {
		return next{}, false
	}
	n := next{which: make([]bool, len(sr.cells))}
	var any bool
	for i := range sr.cells {
		c := &sr.cells[i]
		if i == base || c.Skipped != "" || len(c.Repetitions) >= maxRounds || c.LastLook <= c.FirstStage {
			continue
		}
		stage := verdict.RatioInterval(verdict.FirstRounds(c, c.FirstStage), verdict.FirstRounds(&sr.cells[base], c.FirstStage))
		if stage.Pairs < 2 {
			continue // errors or interrupts, which more rounds do not cure
		}
		w := verdict.GeoHalfWidth(verdict.RatioInterval(c, &sr.cells[base]))
		if w <= floor {
			continue
		}
		n.which[i], any = true, true
		n.widest = math.Max(n.widest, math.Log1p(w))
	}
	n.which[base] = true
	return n, any
}
