package matrix

import (
	"fmt"
	"strings"
	"time"
)

// A run with a Budget plans its first stages before it starts (FitBudget,
// from EstimateRun); on a machine slower than the estimate they would run
// past the budget. So the runner keeps the pace: before each scenario's
// first stage it compares the time the run has taken with what the
// estimate said for it, and when the first stages left would end past the
// budget at that pace, it gives each fewer rounds, down to MinFirstStage.
// Rounds are cut by time alone, never by what a cell measured, and each
// cell records its first stage, where its interval's looks begin.

// overrunSlack is how far past its budget a run's rounds may end before
// the run records an overrun: the last round's estimate is off by about
// a repetition, and a default run whose pace held ends within a second.
const overrunSlack = time.Second

// prepCost is the expected time of sc's checks and warm-up rounds.
func (o *Options) prepCost(sc Scenario) time.Duration {
	r := &runner{opts: *o}
	var d time.Duration
	for _, col := range r.columns(sc) {
		warm := o.coldCost(col.proto, false) + o.roundCost(sc, col.proto)/warmShare
		d += o.checkCost(sc, col.proto) + time.Duration(o.warmupRounds())*warm
	}
	return d
}

// stageCost is the expected time of one round of sc over all its columns.
func (o *Options) stageCost(sc Scenario) time.Duration {
	r := &runner{opts: *o}
	var d time.Duration
	for _, col := range r.columns(sc) {
		d += o.roundCost(sc, col.proto)
	}
	return d
}

// firstStage is the rounds sc's cells get before any is added: Repeat,
// or fewer when the first stages of sc and the scenarios after it (rest),
// at the pace the run has kept against its estimate (estDone), would end
// past the Budget less what follows the rounds. When sc's rounds are
// already at MinFirstStage or fewer and would still end past it, they
// are kept, and Settings.Paced says so.
func (r *runner) firstStage(sc Scenario, rest []Scenario) int {
	k := r.opts.repeat(sc)
	if r.opts.Budget <= 0 || r.estDone <= 0 {
		return k
	}
	took := time.Since(r.start)
	pace := float64(took) / float64(r.estDone)
	left := r.opts.Budget - took - r.opts.crossoverCost() - r.opts.browserCost()
	var rounds, prep float64
	for j, s := range rest {
		rounds += float64(r.opts.repeat(s)) * float64(r.opts.stageCost(s))
		if j > 0 {
			prep += float64(r.opts.prepCost(s))
		}
	}
	avail := float64(left)/pace - prep
	if rounds <= 0 || avail >= rounds {
		return k
	}
	cut := min(max(MinFirstStage, int(float64(k)*avail/rounds)), k)
	if cut < k {
		r.paced = append(r.paced, fmt.Sprintf("%s %d", sc.Name, cut))
		r.cutFrom = k
	} else {
		r.paced = append(r.paced, fmt.Sprintf("%s kept %d", sc.Name, k))
	}
	held := "to hold"
	if float64(cut)*rounds > float64(k)*avail {
		held = "and even those would overrun"
	}
	what := "first rounds at the fewest already"
	if r.cutFrom > 0 {
		what = fmt.Sprintf("first rounds cut from %d", r.cutFrom)
	}
	r.res.Settings.Paced = fmt.Sprintf("%s (%s), %s the %s budget: the run went at %.1f times its estimate",
		what, strings.Join(r.paced, ", "), held, roundBudget(r.opts.Budget), pace)
	return cut
}

// setFirstStage gives sr's cells k first rounds instead of Repeat.
func (r *runner) setFirstStage(sr *scenarioRun, k int) {
	planned := r.opts.repeat(sr.sc)
	if k == planned {
		return
	}
	for i := range sr.cells {
		sr.cells[i].FirstStage = k
		if sr.cells[i].Skipped == "" {
			r.total -= planned - k
		}
	}
}

// roundBudget is a budget as a line says it: to the second, to the
// millisecond below one.
func roundBudget(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(time.Second)
	}
	return d.Round(time.Millisecond)
}
