package matrix

import (
	"context"
	"math"
	"time"

	"github.com/httpvs/httpvs/internal/verdict"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

// scenarioRun is one scenario's cells while they are measured.
type scenarioRun struct {
	sc     Scenario
	cols   []column
	cells  []results.Cell
	sizes  []units.Bytes   // transfers: each cell's total body size
	spent  []time.Duration // each column's measuring time so far
	rounds int             // rounds started
	// cut holds the columns a round was due to measure when the run's
	// context ended (an interrupt, or the child server's death), and
	// cutRound the first round that ended so (0 if none).
	cut      []bool
	cutRound int
	// partner is the tuned variant of sr's scenario, or the scenario sr
	// is the variant of: the two are measured in the same rounds
	// (measureRound), so that a tuned cell's gain over the shipped cell
	// of its transport pairs round by round (verdict.SetTunedGains).
	partner *scenarioRun
}

// finish summarises the cells and returns those measured or skipped,
// the A/A column's apart.
func (sr *scenarioRun) finish() (cells, aa []results.Cell) {
	for i := range sr.cells {
		verdict.SummariseCell(&sr.cells[i])
		switch {
		case sr.cols[i].aa:
			aa = append(aa, sr.cells[i])
		case sr.cells[i].Skipped != "" || len(sr.cells[i].Repetitions) > 0:
			cells = append(cells, sr.cells[i])
		}
	}
	return cells, aa
}

// next is what another round of a scenario would be for: the columns it
// measures, h1 included (rounds are paired), the widest half-width among
// them, and the fewest rounds that would settle one of them.
type next struct {
	which  []bool
	widest float64
	// gap, under the sequential rule, is how far the closest of which's
	// cells is expected to stay from deciding by its last look when none
	// is expected to decide (verdict.RoundsToDecide); 0 otherwise.
	gap float64
	// need is the fewest rounds, this one included, after which one of
	// which's cells is expected to have settled (roundsToSettle); 0 when
	// none can within the bound, and which holds every unsettled cell.
	need int
}

// wide returns what another round of sr would be for when rounds are
// planned for precision (Options.Precision), and false when no cell needs
// one. Each cell's rounds are planned once, from the spread of its first
// stage (the first `first` rounds), as Stein's two-stage procedure does:
// it needs rounds while it has fewer than that plan (the fewest after
// which its interval is expected within half, or maxRounds when none is)
// and its first stage paired at least twice and was wider than half. Only the first stage's width decides, never where the ratio lies relative to 1, nor
// the rounds added since: sampling that stops when the verdict decides,
// or when a run of rounds happens to agree, calls differences that are
// not there more often than the 5% a 95% interval promises
// (verdict.RoundsBySpread). The round takes the cells that could settle
// within maxRounds; when none can, every unsettled one.
func (sr *scenarioRun) wide(maxRounds, first int, half float64, baseline string) (next, bool) {
	base := sr.baseline(baseline)
	if base < 0 || len(sr.cells[base].Repetitions) >= maxRounds {
		return next{}, false
	}
	all := make([]bool, len(sr.cells))
	n := next{which: make([]bool, len(sr.cells))}
	var any bool
	for i := range sr.cells {
		c := &sr.cells[i]
		if i == base || c.Skipped != "" || len(c.Repetitions) >= maxRounds {
			continue
		}
		iv := verdict.RatioInterval(c, &sr.cells[base])
		stage := verdict.RatioInterval(verdict.FirstRounds(c, first), verdict.FirstRounds(&sr.cells[base], first))
		if stage.Pairs < 2 || verdict.HalfWidth(stage) <= half {
			// Settled in the first stage; or fewer than two pairs there:
			// errors or interrupts, which more rounds do not cure.
			continue
		}
		k := roundsToSettle(stage, half, maxRounds-stage.Pairs)
		if k > 0 && stage.Pairs+k <= iv.Pairs {
			continue // its plan is met
		}
		all[i], any = true, true
		n.widest = math.Max(n.widest, verdict.HalfWidth(iv))
		if k > 0 {
			n.which[i] = true
			if left := stage.Pairs + k - iv.Pairs; n.need == 0 || left < n.need {
				n.need = left
			}
		}
	}
	if n.need == 0 {
		n.which = all
	}
	n.which[base] = true
	return n, any
}

// open returns what another round of sr would be for under the
// sequential rule (results.Sequential), and false when no cell needs one:
// a cell is open while its verdict is undetermined and it has fewer than
// maxRounds rounds; it stops deciding once decided (precise may still
// give it rounds for its width). The baseline, measured in every round,
// may pass maxRounds: a cell that waited while others took rounds still
// gets its own. The A/A column is planned as a verdict cell: the same
// first look, the same rule for the rounds added, in the same rounds, so
// that its false-call rate checks the procedure the verdict cells get.
// The round takes the open cells expected to decide within their last
// look if their mean and spread hold (verdict.RoundsToDecide), and need
// the fewest rounds of them; when none is expected to, every open cell,
// and gap the closest's. Where the ratio lies may plan the rounds here:
// the cells' intervals hold at every look together.
func (sr *scenarioRun) open(maxRounds int, baseline string) (next, bool) {
	base := sr.baseline(baseline)
	if base < 0 {
		return next{}, false
	}
	all := make([]bool, len(sr.cells))
	n := next{which: make([]bool, len(sr.cells)), gap: math.Inf(1)}
	var any bool
	for i := range sr.cells {
		c := &sr.cells[i]
		if i == base || c.Skipped != "" || len(c.Repetitions) >= maxRounds {
			continue
		}
		iv := verdict.RatioInterval(c, &sr.cells[base])
		stage := verdict.RatioInterval(verdict.FirstRounds(c, c.FirstStage), verdict.FirstRounds(&sr.cells[base], c.FirstStage))
		if stage.Pairs < 2 || iv.Verdict != results.VerdictUndetermined {
			// Decided; or fewer than two pairs in the first stage:
			// errors or interrupts, which more rounds do not cure.
			continue
		}
		m, sd := verdict.LogSpread(verdict.PairedLogs(c, &sr.cells[base]))
		k, gap := verdict.RoundsToDecide(m, sd, iv.Pairs, c.FirstStage, max(c.LastLook, maxRounds))
		all[i], any = true, true
		n.widest = math.Max(n.widest, verdict.HalfWidth(iv))
		n.gap = math.Min(n.gap, gap)
		if k > 0 {
			n.which[i] = true
			if n.need == 0 || k < n.need {
				n.need = k
			}
		}
	}
	if n.need == 0 {
		n.which = all
	} else {
		n.gap = 0
	}
	n.which[base] = true
	return n, any
}

// baseline is the index of sr's measured baseline cell, -1 if none.
func (sr *scenarioRun) baseline(name string) int {
	base := -1
	for i, c := range sr.cells {
		if c.Protocol == name && c.Skipped == "" {
			base = i
		}
	}
	return base
}

// roundsToSettle predicts how many more rounds, 1 to room, a cell whose
// first stage is iv needs to settle: its two-stage interval's half-width
// within half (verdict.SteinRounds: the first stage's spread
// and t quantile, shrunk by the square root of the pairs). 0 when room
// rounds are not expected to do it.
func roundsToSettle(iv results.Interval, half float64, room int) int {
	n := verdict.SteinRounds(iv, half, iv.Pairs+room)
	if n == 0 {
		return 0
	}
	return max(n-iv.Pairs, 1)
}

// cost estimates a round of which's columns from the time each took per
// repetition so far.
func (sr *scenarioRun) cost(which []bool) time.Duration {
	var d time.Duration
	for i, w := range which {
		if k := len(sr.cells[i].Repetitions); w && k > 0 {
			d += sr.spent[i] / time.Duration(k)
		}
	}
	return d
}

// moreRounds adds rounds, one at a time, while a cell is open (its
// verdict undetermined; with Precision set, its interval wider than
// that) or, under the sequential rule, once none is, while a cell's
// interval is wider than verdict.PrecisionFloor; each cell has fewer
// than MaxRepeat repetitions, and the round is expected to end within
// Budget of the run's start. A round to decide goes where the fewest
// seconds are expected to decide (or settle) a cell: the scenario's
// round cost times the rounds its closest cell needs, so the budget
// decides as many verdicts as it can; when no cell is expected to within
// MaxRepeat, to the scenario closest to it (with Precision, whose
// interval is widest). The A/A columns are planned with the verdict
// cells, by the same rules.
func (r *runner) moreRounds(ctx context.Context, runs []*scenarioRun) {
	skip := map[roundFor]bool{} // no time left for its round
	for ctx.Err() == nil {
		pick, which, cost := r.nextRound(runs, skip)
		if pick.sr == nil {
			return
		}
		// The crossover measurement still comes after the rounds.
		if r.opts.Budget > 0 && time.Since(r.start)+cost+r.opts.crossoverCost() > r.opts.Budget {
			skip[pick] = true // a cheaper round may still fit
			continue
		}
		parts := pick.sr.withPartner(which, r.opts.MaxRepeat, r.res.Settings.Baseline)
		for _, p := range parts {
			for _, w := range p.which {
				if w {
					r.total++
				}
			}
		}
		r.measureRound(ctx, parts, false)
		r.res.Settings.ExtraRounds++
		if pick.precise {
			r.res.Settings.PrecisionRounds++
		}
	}
}

// roundFor is a round of sr's cells to decide them, or (precise) to
// narrow the widest intervals once every cell is decided or at its last
// look.
type roundFor struct {
	sr      *scenarioRun
	precise bool
}

// nextRound picks the round moreRounds adds next, leaving out those in
// skip: among the rounds that decide the better (better), and only when
// there is none the precision rounds' widest (precise). It returns the
// columns the round measures and its expected cost; a nil sr when no
// round is left.
func (r *runner) nextRound(runs []*scenarioRun, skip map[roundFor]bool) (roundFor, []bool, time.Duration) {
	var (
		pick roundFor
		best next
		cost time.Duration
	)
	tiers := []bool{false, true}
	if r.opts.Precision > 0 {
		tiers = tiers[:1] // wide plans every round for its own precision
	}
	for _, precise := range tiers {
		for _, sr := range runs {
			var n next
			var any bool
			switch {
			case r.opts.Precision > 0:
				n, any = sr.wide(r.opts.MaxRepeat, r.opts.repeat(sr.sc), r.opts.Precision, r.res.Settings.Baseline)
			case precise:
				n, any = sr.precise(r.opts.MaxRepeat, verdict.PrecisionFloor, r.res.Settings.Baseline)
			default:
				n, any = sr.open(r.opts.MaxRepeat, r.res.Settings.Baseline)
			}
			if !any || skip[roundFor{sr, precise}] {
				continue
			}
			c := sr.cost(n.which)
			if p := sr.withPartner(n.which, r.opts.MaxRepeat, r.res.Settings.Baseline); len(p) > 1 {
				c += p[1].sr.cost(p[1].which)
			}
			if pick.sr == nil || better(n, c, best, cost) {
				pick, best, cost = roundFor{sr, precise}, n, c
			}
		}
		if pick.sr != nil {
			break
		}
	}
	return pick, best.which, cost
}

// better reports whether a round of a (costing ca) goes before one of b:
// one that can settle a cell before one that cannot, then the fewer
// expected seconds to settle one, then the one closer to deciding, then
// the wider interval.
func better(a next, ca time.Duration, b next, cb time.Duration) bool {
	switch {
	case (a.need > 0) != (b.need > 0):
		return a.need > 0
	case a.need > 0 && ca*time.Duration(a.need) != cb*time.Duration(b.need):
		return ca*time.Duration(a.need) < cb*time.Duration(b.need)
	case a.gap != b.gap:
		return a.gap < b.gap
	}
	return a.widest > b.widest
}
