package matrix

import (
	"fmt"
	"slices"
	"time"

	"github.com/httpvs/httpvs/results"
)

// userRound is one round of sc, a scenario of the user's requests, over
// every column; zero for any other scenario.
func (o *Options) userRound(sc Scenario) time.Duration {
	if spec(&sc).Req == nil || spec(&sc).Duration <= 0 {
		return 0
	}
	return o.stageCost(sc)
}

// fewestWorth is the first rounds sc may not be cut below: the fewest an
// interval is worth (MinFirstStage), or the rounds asked when fewer (a
// --quick run's one).
func (o *Options) fewestWorth(sc Scenario) int { return min(MinFirstStage, o.repeat(sc)) }

// pluralVerb is "1 round is" or "3 rounds are".
func pluralVerb(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// dropUnholdable leaves out of o the user's scenarios whose fewest first
// rounds worth an interval (fewestWorth) would take more than the whole
// budget: measured once they would starve every other cell of
// its rounds and still decide nothing. The cheapest of them stays when
// none else would. It returns a line for each and each as not run, with
// the budget that would hold it.
func dropUnholdable(o *Options, budget time.Duration) ([]string, []results.NotRun) {
	if budget <= 0 {
		return nil, nil
	}
	var drop []int
	others := false
	for i, sc := range o.Scenarios {
		if round := o.userRound(sc); time.Duration(o.fewestWorth(sc))*round > budget {
			drop = append(drop, i)
		} else {
			others = true
		}
	}
	if !others && len(drop) > 0 {
		cheapest := slices.MinFunc(drop, func(a, b int) int { return int(o.userRound(o.Scenarios[a]) - o.userRound(o.Scenarios[b])) })
		drop = slices.DeleteFunc(drop, func(i int) bool { return i == cheapest })
	}
	var (
		lines  []string
		notRun []results.NotRun
	)
	for _, i := range drop {
		sc := o.Scenarios[i]
		round, k := o.userRound(sc), o.fewestWorth(sc)
		const step = 10 * time.Second // up, so that the value holds them
		need := (budget + time.Duration(k)*round + step - 1) / step * step
		why := fmt.Sprintf("a round of every transport takes about %v, and its first %s past the %v budget by themselves", round.Round(100*time.Millisecond), pluralVerb(k, "round is", "rounds are"), budget.Round(time.Second))
		lines = append(lines, sc.Name+": left out: "+why)
		notRun = append(notRun, results.NotRun{Scenario: sc.Name, Reason: why, Field: "Budget", Value: need.String()})
	}
	o.Scenarios = slices.Clone(o.Scenarios)
	for j := len(drop) - 1; j >= 0; j-- {
		o.Scenarios = slices.Delete(o.Scenarios, drop[j], drop[j]+1)
	}
	return lines, notRun
}

// fitBudget cuts the rounds of the user's slowest scenarios, costliest
// first, until the run's first rounds are estimated to end within budget
// (each keeps one at least), and says so for each. A scenario whose
// fewest rounds worth an interval are past the budget by themselves is
// left out before (dropUnholdable), so a cut to one round is of a
// scenario that could have had its interval.
func fitBudget(o *Options, budget time.Duration) []string {
	if budget <= 0 {
		return nil
	}
	est, err := estimateRun(*o)
	if err != nil || est.Time <= budget {
		return nil
	}
	over := est.Time - budget
	type slow struct {
		i     int
		round time.Duration // one round over every column
	}
	var list []slow
	for i, sc := range o.Scenarios {
		if d := o.userRound(sc); d > 0 {
			list = append(list, slow{i, d})
		}
	}
	slices.SortFunc(list, func(a, b slow) int { return int(b.round - a.round) })
	var notes []string
	for _, s := range list {
		if over <= 0 {
			break
		}
		sc := &o.Scenarios[s.i]
		rounds := o.repeat(*sc)
		cut := min(rounds-1, int((over+s.round-1)/s.round))
		if cut <= 0 {
			continue
		}
		spec(sc).Rounds = rounds - cut
		over -= time.Duration(cut) * s.round
		notes = append(notes, fmt.Sprintf("%s: %d round(s), not %d: a round of every transport takes about %v, and %v is left of the run's budget",
			sc.Name, spec(sc).Rounds, rounds, s.round.Round(time.Millisecond), budget.Round(time.Second)))
	}
	return notes
}
