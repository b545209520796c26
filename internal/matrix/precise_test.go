package matrix

import (
	"math"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/verdict"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
)

// sequential sets every cell of sr to looks first to last.
func sequential(sr *scenarioRun, first, last int) *scenarioRun {
	for i := range sr.cells {
		sr.cells[i].FirstStage, sr.cells[i].LastLook = first, last
	}
	return sr
}

// TestAAPlannedAsVerdictCells: the A/A column is planned as a verdict
// cell, in the same round: an open A/A column expected to decide gets a
// round beside an open verdict cell of its scenario, and a scenario whose
// only open cell is the A/A column's goes first when it is the closer to
// deciding, not after every verdict cell.
func TestAAPlannedAsVerdictCells(t *testing.T) {
	far := sequential(roundsOf([]string{"h1", "h2c"}, []float64{100, 100, 100, 100, 100, 100},
		[]float64{40, 160, 50, 150, 45, 155}), 6, 16) // about 1, ±50%: open, far
	aa := sequential(roundsOf([]string{"h1", "h2c", verdict.AAColumn("h1")}, []float64{100, 100, 100, 100, 100, 100},
		[]float64{30, 32, 31, 30, 32, 31},            // decided
		[]float64{70, 105, 75, 100, 72, 104}), 6, 16) // A/A about 0.87x: open, close
	aa.cols[2].aa = true
	r := &runner{opts: Options{Options: plan.Options{MaxRepeat: 16}}, res: &results.Results{Settings: results.Settings{Baseline: "h1"}}}
	pick, which, _ := r.nextRound([]*scenarioRun{far, aa}, map[roundFor]bool{})
	if pick.sr != aa || pick.precise || !which[0] || which[1] || !which[2] {
		t.Fatalf("round for the A/A scenario %v (precise %v), which %v: want the A/A column's round to decide, with h1", pick.sr == aa, pick.precise, which)
	}
	n, any := aa.open(16, "h1")
	if !any || n.need == 0 || !n.which[2] {
		t.Fatalf("which %v, need %d: the open A/A column not planned as a verdict cell", n.which, n.need)
	}
}

// TestPrecisionGoesToTheWidest: once no cell is open, rounds go to the
// scenario whose cell's interval is widest in log units, with every cell
// of it wider than the floor and h1; a cell within the floor, or at its
// last look, gets none; once every cell is within the floor, no round.
func TestPrecisionGoesToTheWidest(t *testing.T) {
	h1 := []float64{100, 100, 100, 100, 100, 100}
	narrow := sequential(roundsOf([]string{"h1", "h2c", "h2"}, h1,
		[]float64{30, 36, 31, 35, 30, 36},         // slower, about ±9%: decided
		[]float64{50, 52, 51, 50, 52, 51}), 4, 16) // slower, within the floor
	wide := sequential(roundsOf([]string{"h1", "h2c", "h2", "h3"}, h1,
		[]float64{20, 40, 25, 35, 20, 40},         // slower, wide: decided
		[]float64{50, 52, 51, 50, 52, 51},         // within the floor
		[]float64{40, 52, 42, 50, 40, 52}), 4, 16) // slower, wider than the floor
	for _, sr := range []*scenarioRun{narrow, wide} {
		for i := 1; i < len(sr.cells); i++ {
			if iv := verdict.RatioInterval(&sr.cells[i], &sr.cells[0]); iv.Verdict == results.VerdictUndetermined {
				t.Fatalf("cell %s undetermined (%+v): the test wants every cell decided", sr.cells[i].Protocol, iv)
			}
		}
	}
	r := &runner{opts: Options{Options: plan.Options{MaxRepeat: 16}}, res: &results.Results{Settings: results.Settings{Baseline: "h1"}}}
	skip := map[roundFor]bool{}
	pick, which, _ := r.nextRound([]*scenarioRun{narrow, wide}, skip)
	if pick.sr != wide || !pick.precise || !which[0] || !which[1] || which[2] || !which[3] {
		t.Fatalf("round for the wide scenario %v (precise %v), which %v: want h1, h2c and h3 of the wide one", pick.sr == wide, pick.precise, which)
	}
	n, _ := wide.precise(16, verdict.PrecisionFloor, "h1")
	if want := verdict.GeoHalfWidth(verdict.RatioInterval(&wide.cells[1], &wide.cells[0])); n.widest <= 0 || n.widest < 0.99*log1p(want) {
		t.Fatalf("widest %.3f, want h2c's log half-width %.3f", n.widest, log1p(want))
	}
	skip[pick] = true // no time left for it: the narrow scenario's round
	pick, which, _ = r.nextRound([]*scenarioRun{narrow, wide}, skip)
	if pick.sr != narrow || !pick.precise || !which[0] || !which[1] || which[2] {
		t.Fatalf("next round for the narrow scenario %v (precise %v), which %v: want h1 and h2c", pick.sr == narrow, pick.precise, which)
	}
	checkNoPrecisionRound(t, wide, h1)
}

// checkNoPrecisionRound: cells at their last look, and a cell within the
// floor, get no precision round.
func checkNoPrecisionRound(t *testing.T, wide *scenarioRun, h1 []float64) {
	t.Helper()
	for i := range wide.cells {
		for round := len(wide.cells[i].Repetitions) + 1; round <= 16; round++ {
			wide.cells[i].Repetitions = append(wide.cells[i].Repetitions, results.Repetition{Round: round, Value: wide.cells[i].Repetitions[round%2].Value})
		}
	}
	if _, any := wide.precise(16, verdict.PrecisionFloor, "h1"); any {
		t.Fatal("a precision round for cells at their last look")
	}
	if _, any := sequential(roundsOf([]string{"h1", "h2"}, h1, []float64{50, 52, 51, 50, 52, 51}), 4, 16).precise(16, verdict.PrecisionFloor, "h1"); any {
		t.Fatal("a precision round for a cell within the floor")
	}
}

// TestPrecisionRoundsWithinBudget: a precision round that would end after
// the budget does not start.
func TestPrecisionRoundsWithinBudget(t *testing.T) {
	sr := sequential(roundsOf([]string{"h1", "h2c"}, []float64{100, 100, 100, 100}, []float64{20, 40, 25, 35}), 4, 16)
	sr.spent = []time.Duration{4 * time.Second, 4 * time.Second} // a round: 2s
	r := &runner{opts: Options{Options: plan.Options{MaxRepeat: 16}, Wiring: Wiring{Budget: time.Second}}, start: time.Now(), res: &results.Results{Settings: results.Settings{Baseline: "h1"}}}
	r.moreRounds(t.Context(), []*scenarioRun{sr})
	if sr.rounds != 4 || r.res.Settings.ExtraRounds != 0 || r.res.Settings.PrecisionRounds != 0 {
		t.Fatalf("%d rounds, %d added (%d for precision) within a 1s budget of rounds costing 2s", sr.rounds, r.res.Settings.ExtraRounds, r.res.Settings.PrecisionRounds)
	}
}

func log1p(x float64) float64 { return math.Log1p(x) }
