package matrix

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// TestFitBudgetCutsTheFirstStage: a budget the first rounds fit in
// leaves them as they are; one they do not fit in cuts a default
// Duration to budgetDuration before any round, the rounds kept when
// that takes at most firstShare of it.
func TestFitBudgetCutsTheFirstStage(t *testing.T) {
	opts, full := budgetOptions(t)
	if got, est, note, err := FitBudget(opts, 2*full.Time); err != nil || got.Repeat != 8 || got.Duration != 0 || est != full || note != "" {
		t.Fatalf("a budget twice the estimate: %d rounds of %v, %v, %q, %v; want it as it was", got.Repeat, got.Duration, est.Time, note, err)
	}
	// The default Duration halved fits a budget of the estimate.
	got, est, note, err := FitBudget(opts, full.Time)
	if err != nil || got.Repeat != 8 || got.MaxRepeat != 16 || got.Duration != budgetDuration ||
		float64(est.Time) > firstShare*float64(full.Time) || !strings.Contains(note, "each repetition cut from 100ms to 50ms to fit") {
		t.Fatalf("a budget of the estimate: %d rounds (max %d) of %v, %v of %v, %q, %v", got.Repeat, got.MaxRepeat, got.Duration, est.Time, full.Time, note, err)
	}
}

// TestFitBudgetKeepsAGivenDuration: a Duration the caller set is not
// cut: the rounds are, down to MinFirstStage, until they take at most
// firstShare of the budget. When nothing fits, rounds are fixed at
// MinFirstStage of budgetDuration and the note says the run takes longer
// than the budget.
func TestFitBudgetKeepsAGivenDuration(t *testing.T) {
	opts, full := budgetOptions(t)
	set := opts
	set.Duration = defaults.MatrixDuration
	got, est, note, err := FitBudget(set, full.Time)
	if err != nil || got.Repeat >= 8 || got.Repeat < MinFirstStage || got.MaxRepeat != 16 || got.Duration != defaults.MatrixDuration ||
		float64(est.Time) > firstShare*float64(full.Time) || !strings.Contains(note, "cut from 8 to") || strings.Contains(note, "each repetition") {
		t.Fatalf("a budget of the estimate, Duration set: %d rounds (max %d) of %v, %v of %v, %q, %v", got.Repeat, got.MaxRepeat, got.Duration, est.Time, full.Time, note, err)
	}
	got, _, note, err = FitBudget(opts, time.Millisecond)
	if err != nil || got.Repeat != MinFirstStage || got.MaxRepeat != MinFirstStage || got.Duration != budgetDuration ||
		!strings.Contains(note, "each repetition cut from 100ms to 50ms; the budget cannot hold") {
		t.Fatalf("a budget of 1ms: %d rounds (max %d) of %v, %q, %v; want %d fixed of 50ms, said", got.Repeat, got.MaxRepeat, got.Duration, note, err, MinFirstStage)
	}
}

// budgetOptions is the budget tests' run, two request scenarios of 8 to
// 16 rounds over h1 and h2c, and its estimate.
func budgetOptions(t *testing.T) (Options, Estimate) {
	t.Helper()
	opts := Options{Options: plan.Options{
		Protocols: []transport.Protocol{transport.H1, transport.H2C},
		Scenarios: scenarios(t, "small-sequential,small-concurrent"),
		Repeat:    8,
		MaxRepeat: 16,
	}, Wiring: Wiring{Target: Target{Plain: "http://127.0.0.1:1"}}}
	full, err := EstimateRun(opts)
	if err != nil {
		t.Fatal(err)
	}
	return opts, full
}

// TestFirstStagePaces: a run going at its estimate's pace with room for
// every first stage gives each Repeat rounds; one going at twice its
// estimate, where the rest's first stages fit the budget only at its
// estimate, gives each fewer, down to MinFirstStage when nothing is left,
// and says so; one with no budget is never cut.
func TestFirstStagePaces(t *testing.T) {
	opts, _ := budgetOptions(t)
	o := opts
	if err := o.fill(); err != nil {
		t.Fatal(err)
	}
	scs, err := o.expand()
	if err != nil {
		t.Fatal(err)
	}
	rest := o.stageCost(scs[0])*time.Duration(o.repeat(scs[0])) + o.prepCost(scs[1]) + o.stageCost(scs[1])*time.Duration(o.repeat(scs[1]))
	done := o.prepCost(scs[0])
	stage := func(budget time.Duration, pace float64) (int, string) {
		r := &runner{opts: o, res: &results.Results{}, estDone: done}
		r.opts.Budget = budget
		r.start = time.Now().Add(-time.Duration(pace * float64(done)))
		return r.firstStage(scs[0], scs), r.res.Settings.Paced
	}
	budget := time.Duration(float64(done+rest) * 1.5)
	if k, paced := stage(budget, 1); k != 8 || paced != "" {
		t.Errorf("on pace with room: %d rounds, %q; want 8, none said", k, paced)
	}
	if k, paced := stage(budget, 2); k >= 8 || k < MinFirstStage || !strings.Contains(paced, "first rounds cut from 8 (small-sequential ") ||
		!strings.Contains(paced, "to hold the") || !strings.Contains(paced, "went at 2.0 times its estimate") {
		t.Errorf("at twice the estimate: %d rounds, %q; want fewer than 8, said", k, paced)
	}
	if k, paced := stage(done, 1); k != MinFirstStage || !strings.Contains(paced, "and even those would overrun") {
		t.Errorf("no time left: %d rounds, %q; want %d, said", k, paced, MinFirstStage)
	}
	if k, _ := stage(0, 10); k != 8 {
		t.Errorf("no budget: %d rounds; want 8", k)
	}
	// Rounds already at the fewest are kept, and said to overrun.
	o.Repeat = MinFirstStage
	if k, paced := stage(done, 1); k != MinFirstStage || !strings.HasPrefix(paced, "first rounds at the fewest already (small-sequential kept 3), and even those would overrun the ") {
		t.Errorf("at the fewest, no time left: %d rounds, %q; want %d, said", k, paced, MinFirstStage)
	}
}

// TestRunRecordsItsOverrun: a run whose fewest first rounds cannot end
// within its budget keeps them, says so (Settings.Paced) and records how
// far past the budget its rounds ended, when that is more than
// overrunSlack; one without a budget records neither.
func TestRunRecordsItsOverrun(t *testing.T) {
	o := Options{Options: plan.Options{
		Protocols: []transport.Protocol{transport.H1, transport.H2C},
		Scenarios: plan.RequestScenarios([]results.Request{{Method: "GET", Path: "/small"}}),
		Repeat:    1,
		MaxRepeat: 1,
		Duration:  400 * time.Millisecond, // four cells: past the budget by more than overrunSlack
	}, Wiring: Wiring{Target: target(t, nil), Budget: time.Millisecond}}
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	s := res.Settings
	took := res.Finished.Sub(res.Started).Seconds()
	if s.BudgetSeconds != 0.001 || s.OverrunSeconds < took-s.BudgetSeconds || s.OverrunSeconds <= 0 {
		t.Errorf("budget %gs, overrun %gs, the run took %gs: want the overrun at least what it took past the budget", s.BudgetSeconds, s.OverrunSeconds, took)
	}
	if want := "first rounds at the fewest already (request-1 kept 1, request-1-x50 kept 1), and even those would overrun the 1ms budget: the run went at "; !strings.HasPrefix(s.Paced, want) {
		t.Errorf("paced %q, want it to start %q", s.Paced, want)
	}
	for _, c := range res.Cells {
		if len(c.Repetitions) != 1 || c.Errors.Total != 0 {
			t.Errorf("%s/%s: %d repetitions, %d errors; want 1, none", c.Scenario, c.Protocol, len(c.Repetitions), c.Errors.Total)
		}
	}
	o.Budget = 0
	if res, err = Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if res.Settings.OverrunSeconds != 0 || res.Settings.Paced != "" {
		t.Errorf("no budget: overrun %g, paced %q; want neither", res.Settings.OverrunSeconds, res.Settings.Paced)
	}
}
