package matrix

import (
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/transport"
)

// TestFitBudgetCutsTheFirstStage: a budget the first rounds do not fit
// in cuts them, down to MinFirstStage, until they take at most
// firstShare of it; when even those do not fit, rounds are fixed at them
// and the note says the run takes longer than the budget.
func TestFitBudgetCutsTheFirstStage(t *testing.T) {
	opts := plan.Options{
		Target:    Target{Plain: "http://127.0.0.1:1"},
		Protocols: []transport.Protocol{transport.H1, transport.H2C},
		Scenarios: scenarios(t, "small-sequential,small-concurrent"),
		Repeat:    8,
		MaxRepeat: 16,
	}
	full, err := EstimateRun(opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, est, note, err := FitBudget(opts, 2*full.Time); err != nil || got.Repeat != 8 || est != full || note != "" {
		t.Fatalf("a budget twice the estimate: %d rounds, %v, %q, %v; want it as it was", got.Repeat, est.Time, note, err)
	}
	got, est, note, err := FitBudget(opts, full.Time)
	if err != nil || got.Repeat >= 8 || got.Repeat < MinFirstStage || got.MaxRepeat != 16 ||
		float64(est.Time) > firstShare*float64(full.Time) || !strings.Contains(note, "cut from 8 to") {
		t.Fatalf("a budget of the estimate: %d rounds (max %d), %v of %v, %q, %v", got.Repeat, got.MaxRepeat, est.Time, full.Time, note, err)
	}
	got, _, note, err = FitBudget(opts, time.Millisecond)
	if err != nil || got.Repeat != MinFirstStage || got.MaxRepeat != MinFirstStage || !strings.Contains(note, "cannot hold") {
		t.Fatalf("a budget of 1ms: %d rounds (max %d), %q, %v; want %d fixed, said", got.Repeat, got.MaxRepeat, note, err, MinFirstStage)
	}
}
