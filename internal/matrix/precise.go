package matrix

import (
	"math"
	"time"

	"github.com/httpvs/httpvs/internal/verdict"
)

// precise returns what a round of sr would be for once no cell of any
// scenario is open (open): the cells, the A/A column's alike, whose
// repeated confidence interval is wider than floor in log units
// (verdict.GeoHalfWidth) and that have fewer than maxRounds rounds, with
// the baseline; widest is the widest of them, in log units. The
// scenarios' rounds are ordered by how much they narrow per second
// (narrowing over the round's cost, narrower), the wider first on a
// tie. False
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

// narrowing is how much another round of sr's columns in which is
// expected to narrow their cells' intervals, summed in log units: each
// cell's log half-width now times the share its design's next look
// takes off (verdict.LookHalf at its pairs and one more: a cell at its
// first look, where 1% is spent and t has three degrees of freedom,
// loses more than a quarter; one at its twelfth, a twentieth).
func (sr *scenarioRun) narrowing(which []bool, baseline string) float64 {
	base := sr.baseline(baseline)
	if base < 0 {
		return 0
	}
	var g float64
	for i := range sr.cells {
		c := &sr.cells[i]
		if i == base || !which[i] || c.LastLook <= c.FirstStage {
			continue
		}
		iv := verdict.RatioInterval(c, &sr.cells[base])
		w := verdict.GeoHalfWidth(iv)
		if math.IsInf(w, 1) || iv.Pairs >= c.LastLook {
			continue
		}
		now, next := verdict.LookHalf(1, iv.Pairs, c.FirstStage, c.LastLook), verdict.LookHalf(1, iv.Pairs+1, c.FirstStage, c.LastLook)
		g += math.Log1p(w) * (1 - next/now)
	}
	return g
}

// narrower reports whether a precision round narrowing ga (narrowing)
// for ca goes before one narrowing gb for cb: the more narrowing per
// second of the budget, then the wider interval (a's widest, wa).
func narrower(ga float64, ca time.Duration, wa, gb float64, cb time.Duration, wb float64) bool {
	if x, y := ga*float64(max(cb, 1)), gb*float64(max(ca, 1)); x != y {
		return x > y
	}
	return wa > wb
}
