package matrix

import (
	"context"
	"fmt"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/results"
)

// PlanOptions is what a plan is made within.
type PlanOptions struct {
	// External checks the target first (CheckTarget): what it lacks is
	// left out and said.
	External bool
	// TargetOnly stops after the target's check: a capacity search sizes
	// its own rates and plans no rounds.
	TargetOnly bool
	// Budget is the run's time from Began; zero: none. On loopback it
	// bounds the user's requests' probes and the first rounds (FitBudget);
	// across a link, the loss events a transfer is sized for.
	Budget time.Duration
	Began  time.Time
}

// Planned is a run as it will be measured.
type Planned struct {
	// Options are the run's options as planned: the transports and
	// scenarios the target has, the user's requests' rounds sized, the
	// first rounds fitted to the budget.
	Options  Options
	Estimate Estimate
	// NotRun is what the target lacks; Sizing says, a line each, where
	// the user's requests are measured otherwise than asked
	// (Results.Sizing); Fitted how the first rounds or the transfers'
	// loss events were fitted to the budget, a line each.
	NotRun []results.NotRun
	Sizing []string
	Fitted []string
}

// Plan makes the plan of a run of o: the target's check, the sizing of
// the user's requests, the estimate, and its fit to the budget. A target
// that lacks every transport or scenario asked for gives a plan without
// them and no estimate: the caller says so. Its error is for options Run
// would refuse.
func Plan(ctx context.Context, o Options, p PlanOptions) (Planned, error) {
	var pl Planned
	if p.External {
		o, pl.NotRun = checkTarget(ctx, o)
		if len(o.Protocols) == 0 || len(o.Scenarios) == 0 || p.TargetOnly {
			pl.Options = o
			return pl, nil
		}
	}
	left := func() time.Duration { return max(p.Budget-time.Since(p.Began), time.Nanosecond) }
	probe := time.Duration(0)
	if p.Budget > 0 && !o.onLink() {
		probe = left()
	}
	var out []results.NotRun
	o, pl.Sizing, out = sizeRequests(ctx, o, probe)
	pl.NotRun = append(pl.NotRun, out...)
	est, err := estimateRun(o)
	if err != nil {
		return pl, err
	}
	if p.Budget > 0 && !o.onLink() {
		// The budget bounds the first rounds too: cut to fit, or said.
		var note string
		if o, est, note, err = FitBudget(o, left()); err != nil {
			return pl, err
		}
		if note != "" {
			pl.Fitted = append(pl.Fitted, note)
		}
	}
	if o.onLink() {
		// Said before the cells; the results record Settings.LossEvents.
		var lines []string
		o, est, lines = fitLossEvents(o, est, p)
		pl.Fitted = append(pl.Fitted, lines...)
	}
	pl.Options, pl.Estimate = o, est
	return pl, nil
}

// minLossEvents is the fewest loss events fitLossEvents sizes a transfer
// for to fit a budget.
const minLossEvents = 10

// fitLossEvents says how the transfers across a lossy link were sized
// for its loss (LossSizing), and when p.Budget is set and the first
// rounds at LossEvents would end past it, says so with the time they
// would take, and sizes them for fewer loss events, as many as fit (at
// least minLossEvents); est is the estimate of what will run.
func fitLossEvents(o Options, est Estimate, p PlanOptions) (Options, Estimate, []string) {
	lines := lossSizing(o)
	if len(lines) == 0 || p.Budget <= 0 {
		return o, est, lines
	}
	spent := time.Since(p.Began)
	if spent+est.Time <= p.Budget {
		return o, est, lines
	}
	want := o.LossEvents
	if want == 0 {
		want = defaults.LossEvents
	}
	full := est
	for n := want * 3 / 4; n >= minLossEvents; n = n * 3 / 4 {
		m := o
		m.LossEvents = n
		e, err := estimateRun(m)
		if err != nil {
			break
		}
		o.LossEvents, est = n, e
		if spent+e.Time <= p.Budget {
			break
		}
	}
	if o.LossEvents == want || o.LossEvents == 0 {
		return o, est, append(lines, fmt.Sprintf("the run cannot see %d loss events per transfer within the budget of %s: that takes about %s", want, p.Budget.Round(time.Second), (spent+full.Time).Round(time.Second)))
	}
	note := fmt.Sprintf("the run cannot see %d loss events per transfer within the budget of %s: that takes about %s; sized for %d instead, about %s",
		want, p.Budget.Round(time.Second), (spent + full.Time).Round(time.Second), o.LossEvents, (spent + est.Time).Round(time.Second))
	return o, est, append(lossSizing(o), note)
}
