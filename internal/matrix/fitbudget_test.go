package matrix

import (
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/plan"
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
func budgetOptions(t *testing.T) (plan.Options, Estimate) {
	t.Helper()
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
	return opts, full
}
