package matrix

import (
	"context"
	"math"
	"time"

	"github.com/httpvs/httpvs/units"
)

// scenarioRun is one scenario's cells while they are measured.
type scenarioRun struct {
	sc     Scenario
	cols   []column
	cells  []Cell
	sizes  []units.Bytes   // transfers: each cell's total body size
	spent  []time.Duration // each column's measuring time so far
	rounds int             // rounds started
}

// finish summarises the cells and returns those measured or skipped.
func (sr *scenarioRun) finish() []Cell {
	var out []Cell
	for i := range sr.cells {
		summarise(&sr.cells[i])
		if sr.cells[i].Skipped != "" || len(sr.cells[i].Repetitions) > 0 {
			out = append(out, sr.cells[i])
		}
	}
	return out
}

// wide returns which of sr's columns need another round (their interval
// to h1 is wider than StableHalfWidth or its verdict is at an edge, they
// paired at least twice, and have fewer than maxRounds repetitions), the
// widest half-width among them, and whether there is any. The h1 column
// goes with them: rounds are paired.
func (sr *scenarioRun) wide(maxRounds int) (which []bool, widest float64, any bool) {
	base := -1
	for i, c := range sr.cells {
		if c.Protocol == "h1" && c.Skipped == "" {
			base = i
		}
	}
	if base < 0 || len(sr.cells[base].Repetitions) >= maxRounds {
		return nil, 0, false
	}
	which = make([]bool, len(sr.cells))
	for i := range sr.cells {
		c := &sr.cells[i]
		if i == base || c.Skipped != "" || len(c.Repetitions) >= maxRounds {
			continue
		}
		iv := ratioInterval(c, &sr.cells[base])
		if iv.Pairs < 2 || (iv.Stable() && !atEdge(iv)) {
			// Fewer than two pairs after the first rounds: errors or
			// interrupts, which more rounds do not cure.
			continue
		}
		which[i], any = true, true
		widest = math.Max(widest, iv.HalfWidth())
	}
	which[base] = true
	return which, widest, any
}

// atEdge reports whether iv's verdict hangs on its last round: 1 lies
// within the interval widened by half, but not within it narrowed by
// half, so another run would as likely read "slower" (or "faster") as
// "≈ h1". More rounds narrow the interval until it decides. An interval
// within Negligible of 1 has decided: similar.
func atEdge(iv Interval) bool {
	if iv.Pairs < 2 || (iv.Low >= 1/(1+Negligible) && iv.High <= 1+Negligible) {
		return false
	}
	half := (math.Log(iv.High) - math.Log(iv.Low)) / 2
	d := math.Abs(math.Log(iv.Ratio))
	return d > half/2 && d < half*3/2
}

// cost estimates a round of which's columns from the time they took so far.
func (sr *scenarioRun) cost(which []bool) time.Duration {
	var d time.Duration
	for i, w := range which {
		if w && sr.rounds > 0 {
			d += sr.spent[i] / time.Duration(sr.rounds)
		}
	}
	return d
}

// moreRounds adds rounds, one at a time, to the scenario whose widest
// interval to h1 is widest, while some interval is wider than
// StableHalfWidth, a cell has fewer than MaxRepeat repetitions, and the
// round is expected to end within Budget of the run's start.
func (r *runner) moreRounds(ctx context.Context, runs []*scenarioRun) {
	skip := map[*scenarioRun]bool{} // no time left for its round
	for ctx.Err() == nil {
		var (
			next   *scenarioRun
			cols   []bool
			widest float64
		)
		for _, sr := range runs {
			which, w, any := sr.wide(r.opts.MaxRepeat)
			if any && !skip[sr] && (next == nil || w > widest) {
				next, cols, widest = sr, which, w
			}
		}
		if next == nil {
			return
		}
		if r.opts.Budget > 0 && time.Since(r.start)+next.cost(cols) > r.opts.Budget {
			skip[next] = true // a cheaper scenario's round may still fit
			continue
		}
		for _, w := range cols {
			if w {
				r.total++
			}
		}
		r.round(ctx, next, cols)
		r.res.Settings.ExtraRounds++
	}
}
