package matrix

import (
	"context"
	"math"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// TestRatioIntervalPairsByRound pairs repetitions by their round, not by
// their place: h1 ran a round the other cell did not.
func TestRatioIntervalPairsByRound(t *testing.T) {
	h1 := &results.Cell{Repetitions: []results.Repetition{{Round: 1, Value: 100}, {Round: 2, Value: 400}, {Round: 3, Value: 200}}}
	c := &results.Cell{Repetitions: []results.Repetition{{Round: 1, Value: 50}, {Round: 3, Value: 100}}}
	if iv := analysis.RatioInterval(c, h1); iv.Pairs != 2 || iv.Ratio != 0.5 || !analysis.Stable(iv) {
		t.Fatalf("%+v, want 2 pairs at 0.5", iv)
	}
}

func roundsOf(protos []string, values ...[]float64) *scenarioRun {
	sr := &scenarioRun{rounds: len(values[0])}
	for i, p := range protos {
		c := results.Cell{Protocol: p}
		for j, v := range values[i] {
			c.Repetitions = append(c.Repetitions, results.Repetition{Round: j + 1, Value: v})
		}
		sr.cells = append(sr.cells, c)
		sr.cols = append(sr.cols, column{name: p})
		sr.spent = append(sr.spent, time.Second)
	}
	return sr
}

// TestWideCellsGetRounds: only cells with a wide interval, at least two
// pairs and room under the bound get another round, with h1.
func TestWideCellsGetRounds(t *testing.T) {
	sr := roundsOf([]string{"h1", "h2c", "h2", "h3"},
		[]float64{100, 100, 100},
		[]float64{50, 100, 70}, // wide
		[]float64{50, 50, 50},  // stable
		[]float64{50, 0, 0})    // one pair: failed rounds
	n, any := sr.wide(5, 3, analysis.StableHalfWidth, "h1")
	if !any || !n.which[0] || !n.which[1] || n.which[2] || n.which[3] || n.widest <= analysis.StableHalfWidth {
		t.Fatalf("which %v, widest %v, any %v", n.which, n.widest, any)
	}
	if _, any := sr.wide(3, 3, analysis.StableHalfWidth, "h1"); any {
		t.Fatal("a round past the bound")
	}
	if c := sr.cost(n.which); c != 2*time.Second/3 {
		t.Fatalf("cost %v, want two columns at 1s/3 rounds", c)
	}
}

// TestRoundsIgnoreTheVerdict: planned for precision, whether a cell gets
// another round depends on its interval's width alone, never on where its ratio lies relative
// to 1 (stopping on the verdict would make false calls more frequent than
// the interval's 5%): a stable interval just clear of 1 gets none, and
// two cells of the same spread, one about 1 and one far below it, are
// treated alike.
func TestRoundsIgnoreTheVerdict(t *testing.T) {
	sr := roundsOf([]string{"h1", "h2c", "h2"},
		[]float64{100, 100, 100, 100},
		[]float64{90, 99, 92, 98}, // stable, slower, its top end near 1
		[]float64{50, 50, 51, 50})
	if n, any := sr.wide(8, 4, analysis.StableHalfWidth, "h1"); any {
		t.Fatalf("which %v: a stable interval got a round for where it lies", n.which)
	}
	sr = roundsOf([]string{"h1", "h2c", "h2"},
		[]float64{100, 100, 100, 100},
		[]float64{80, 125, 80, 125},   // about 1, ±25%
		[]float64{40, 62.5, 40, 62.5}) // about 0.5, the same spread
	n, any := sr.wide(8, 4, analysis.StableHalfWidth, "h1")
	if !any || !n.which[1] || !n.which[2] {
		t.Fatalf("which %v: two cells of one spread treated apart", n.which)
	}
	iv1 := analysis.RatioInterval(&sr.cells[1], &sr.cells[0])
	iv2 := analysis.RatioInterval(&sr.cells[2], &sr.cells[0])
	// ±25% over 4 pairs needs about 64 more (Stein's, at t(3) = 3.18).
	if a, b := roundsToSettle(iv1, analysis.StableHalfWidth, 80), roundsToSettle(iv2, analysis.StableHalfWidth, 80); a != b || a == 0 {
		t.Fatalf("rounds to settle %d about 1 and %d about 0.5: want equal", a, b)
	}
}

// TestRoundsToSettle: the rounds predicted from a first stage's spread,
// as the square root of the pairs shrinks the interval at the first
// stage's t quantile (Stein's).
func TestRoundsToSettle(t *testing.T) {
	// 8 pairs at ±12% (a log half-width of 0.12): one round's log ratio
	// has sd 0.12*sqrt(8)/2.365 = 0.1435 (about); Stein's half-width,
	// 2.365*0.1435/sqrt(n), is 0.0980 <= asinh(0.10) = 0.0998 at n = 12,
	// 4 more rounds, and 0.1023 at 11. (With t shrinking with n, as a
	// pooled interval's does, 3 would look enough: 2.228*0.1435/sqrt(11)
	// = 0.0964; the two-stage interval would then still be wider than
	// ±10%.)
	half := 0.12
	iv := results.Interval{Ratio: 0.5, Low: 0.5 * math.Exp(-half), High: 0.5 * math.Exp(half), Pairs: 8}
	for _, tc := range []struct{ room, want int }{{8, 4}, {4, 4}, {3, 0}} {
		if got := roundsToSettle(iv, analysis.StableHalfWidth, tc.room); got != tc.want {
			t.Errorf("±12%% after 8 pairs, room %d: %d rounds, want %d", tc.room, got, tc.want)
		}
	}
}

// TestRoundsGoWhereTheySettle: the added rounds go first to the scenario
// whose cell one round settles, not to the one whose cell is widest but
// cannot settle within the bound.
func TestRoundsGoWhereTheySettle(t *testing.T) {
	near := roundsOf([]string{"h1", "h2c"}, // ±10.3%: settles in a round
		[]float64{100, 100, 100, 100, 100, 100, 100, 100},
		[]float64{50, 63, 50, 63, 50, 63, 50, 63})
	far := roundsOf([]string{"h1", "h2c"}, // ±40%: not within 10 rounds
		[]float64{100, 100, 100, 100, 100, 100, 100, 100},
		[]float64{30, 70, 30, 70, 30, 70, 30, 70})
	n, _ := near.wide(10, 8, analysis.StableHalfWidth, "h1")
	f, _ := far.wide(10, 8, analysis.StableHalfWidth, "h1")
	if n.need != 1 || f.need != 0 || !f.which[1] {
		t.Fatalf("near needs %d, far %d (which %v): want 1 and 0 with h2c", n.need, f.need, f.which)
	}
	if !better(n, near.cost(n.which), f, far.cost(f.which)) || better(f, far.cost(f.which), n, near.cost(n.which)) {
		t.Fatal("the round that settles a cell does not go first")
	}
}

// TestBudgetStopsRounds: a round that would end after the budget does not
// start (it would measure nothing here: a started round has no target).
func TestBudgetStopsRounds(t *testing.T) {
	sr := roundsOf([]string{"h1", "h2c"}, []float64{100, 100}, []float64{50, 100})
	r := &runner{opts: Options{Options: plan.Options{MaxRepeat: 10}, Wiring: Wiring{Budget: time.Second}}, start: time.Now(), res: &results.Results{}}
	r.moreRounds(context.Background(), []*scenarioRun{sr})
	if sr.rounds != 2 || r.res.Settings.ExtraRounds != 0 {
		t.Fatalf("%d rounds, %d added within a 1s budget of rounds costing 2s", sr.rounds, r.res.Settings.ExtraRounds)
	}
}

// TestRunAddsRoundsToNoisyCells serves h2c requests at once in odd
// rounds and 10 ms late in even ones (told by Progress, before each
// measurement), h1's at once: odd rounds read h2c about as fast as h1,
// even ones tens of times slower, so the cell stays undetermined at
// every look (a busy machine's late timers slow both columns of an odd
// round alike), and rounds are added, with h1 in each, up to MaxRepeat.
// (1 ms and 10 ms rounds came only severalfold apart: under load, late
// timers brought them close enough to decide at the third look.)
func TestRunAddsRoundsToNoisyCells(t *testing.T) {
	var late atomic.Int64
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ProtoMajor == 2 {
			time.Sleep(time.Duration(late.Load()))
		}
		w.Write([]byte("ok"))
	})
	res, err := run(context.Background(), Options{Options: plan.Options{
		Protocols: []transport.Protocol{transport.H1, transport.H2C},
		Scenarios: scenarios(t, "small-sequential"),
		Repeat:    2,
		MaxRepeat: 4,
		Duration:  50 * time.Millisecond,
		Progress: func(p Progress) {
			late.Store(int64(10*time.Millisecond) * int64((p.Repetition+1)%2))
		},
	}, Wiring: Wiring{Target: target(t, h)}})
	if err != nil {
		t.Fatal(err)
	}
	h1, h2c := res.Cell("small-sequential", "h1"), res.Cell("small-sequential", "h2c")
	if h1 == nil || h2c == nil {
		t.Fatalf("cells missing: %+v", res.Cells)
	}
	if res.Settings.MaxRepeat != 4 || res.Settings.ExtraRounds != len(h1.Repetitions)-2 {
		t.Fatalf("settings %d max, %d added; h1 has %d repetitions", res.Settings.MaxRepeat, res.Settings.ExtraRounds, len(h1.Repetitions))
	}
	for i, r := range h1.Repetitions {
		if r.Round != i+1 {
			t.Fatalf("h1 repetition %d ran in round %d", i, r.Round)
		}
	}
	if len(h1.Repetitions) != 4 || len(h2c.Repetitions) != 4 || res.Settings.ExtraRounds != 2 {
		t.Fatalf("h1 %d, h2c %d repetitions, %d rounds added; want 4, 4, 2 (rounds alternate 0 and 10 ms)", len(h1.Repetitions), len(h2c.Repetitions), res.Settings.ExtraRounds)
	}
	if h2c.VsBaseline == nil || h2c.VsBaseline.Pairs != 4 || analysis.Stable(*h2c.VsBaseline) {
		t.Fatalf("h2c's interval %+v: want 4 pairs, wide", h2c.VsBaseline)
	}
}

// TestRoundsPlannedFromFirstStage: a cell's rounds are planned once from
// its first stage's spread (Stein's two-stage procedure) and the rounds
// added since neither shorten nor lengthen the plan: ±19% over four
// rounds plans some more; rounds that agree exactly do not stop it early,
// and once the plan is met, rounds that disagree do not extend it.
func TestRoundsPlannedFromFirstStage(t *testing.T) {
	first := []float64{90, 111, 90, 111}
	sr := roundsOf([]string{"h1", "h2c"}, []float64{100, 100, 100, 100}, first)
	stage := analysis.RatioInterval(&sr.cells[1], &sr.cells[0])
	k := roundsToSettle(stage, analysis.StableHalfWidth, 30)
	// About ±19% over 4 pairs: Stein's plan is 15 pairs in all, 11 more.
	if k != 11 {
		t.Fatalf("±19%% after 4 pairs: a plan of %d more rounds, want 11", k)
	}
	add := func(v float64) {
		round := len(sr.cells[0].Repetitions) + 1
		sr.cells[0].Repetitions = append(sr.cells[0].Repetitions, results.Repetition{Round: round, Value: 100})
		sr.cells[1].Repetitions = append(sr.cells[1].Repetitions, results.Repetition{Round: round, Value: v})
	}
	for i := range k {
		if _, any := sr.wide(40, 4, analysis.StableHalfWidth, "h1"); !any {
			t.Fatalf("stopped after %d of %d planned rounds", i, k)
		}
		add(100) // rounds that agree: the interval narrows, the plan stands
	}
	add(50) // then one far off: the plan is met all the same
	if n, any := sr.wide(40, 4, analysis.StableHalfWidth, "h1"); any {
		t.Fatalf("which %v: a round past the plan of %d", n.which, k)
	}
}

// TestOpenCellsGetRounds: under the sequential rule a round goes to the
// cells whose verdict is open, with h1: a decided cell (far below 1) gets
// none, however wide its interval; an undetermined one expected to
// decide within its last look gets one, and one not expected to only
// when no cell is.
func TestOpenCellsGetRounds(t *testing.T) {
	sr := roundsOf([]string{"h1", "h2c", "h2", "h3"},
		[]float64{100, 100, 100, 100, 100, 100},
		[]float64{20, 40, 25, 35, 20, 40},    // slower, ±30%: decided
		[]float64{70, 105, 75, 100, 72, 104}, // about 0.87x: open, close
		[]float64{50, 150, 60, 140, 70, 130}) // about 1, ±50%: open, far
	for i := range sr.cells {
		sr.cells[i].FirstStage, sr.cells[i].LastLook = 6, 16
	}
	if v := analysis.RatioInterval(&sr.cells[1], &sr.cells[0]).Verdict; v != results.VerdictSlower {
		t.Fatalf("h2c's verdict %q, want slower", v)
	}
	n, any := sr.open(16, "h1")
	if !any || !n.which[0] || n.which[1] || !n.which[2] || n.which[3] || n.need == 0 {
		t.Fatalf("which %v, need %d: want h1 and h2 only, expected to decide", n.which, n.need)
	}
	sr.cells[2].Skipped = "gone" // only the far cell is left open
	n, any = sr.open(16, "h1")
	if !any || !n.which[3] || n.need != 0 || n.gap <= 1 {
		t.Fatalf("which %v, need %d, gap %.2f: want the far cell, not expected to decide", n.which, n.need, n.gap)
	}
	if _, any := sr.open(6, "h1"); any {
		t.Fatal("a round past the most rounds a cell gets")
	}
}

// TestRoundsGoToTheClosest: a scenario whose open cell is expected to
// decide goes before one whose open cell is not, and among those that
// are not, the one closer to deciding goes first.
func TestRoundsGoToTheClosest(t *testing.T) {
	mk := func(vals ...float64) *scenarioRun {
		sr := roundsOf([]string{"h1", "h2c"}, []float64{100, 100, 100, 100, 100, 100}, vals)
		for i := range sr.cells {
			sr.cells[i].FirstStage, sr.cells[i].LastLook = 6, 16
		}
		return sr
	}
	close := mk(70, 105, 75, 100, 72, 104)
	farther := mk(60, 140, 70, 130, 65, 135)
	farthest := mk(40, 160, 50, 150, 45, 155)
	c, _ := close.open(16, "h1")
	f1, _ := farther.open(16, "h1")
	f2, _ := farthest.open(16, "h1")
	if c.need == 0 || f1.need != 0 || f2.need != 0 || f1.gap >= f2.gap {
		t.Fatalf("need %d, %d, %d; gaps %.2f, %.2f: want the close cell expected to decide, the others not, the farther closer", c.need, f1.need, f2.need, f1.gap, f2.gap)
	}
	if !better(c, time.Second, f1, time.Second) || !better(f1, time.Second, f2, time.Second) || better(f2, time.Second, f1, time.Second) {
		t.Fatal("rounds do not go to the closest to deciding first")
	}
}

// TestOpenCellPastBaselineRounds: a cell that waited while others took
// rounds is still open when h1, in every round, has reached the most
// rounds a cell gets; it stops at that many of its own.
func TestOpenCellPastBaselineRounds(t *testing.T) {
	h1 := make([]float64, 16)
	far := make([]float64, 14) // about 1, ±50%: open
	for i := range h1 {
		h1[i] = 100
	}
	for i := range far {
		far[i] = []float64{50, 150, 60, 140}[i%4]
	}
	sr := roundsOf([]string{"h1", "h2c"}, h1, far)
	for i := range sr.cells {
		sr.cells[i].FirstStage, sr.cells[i].LastLook = 4, 16
	}
	if n, any := sr.open(16, "h1"); !any || !n.which[0] || !n.which[1] {
		t.Fatalf("which %v: want h1 and h2c, open after 14 of its 16 rounds", n.which)
	}
	sr.cells[1].Repetitions = append(sr.cells[1].Repetitions,
		results.Repetition{Round: 15, Value: 50}, results.Repetition{Round: 16, Value: 150})
	if n, any := sr.open(16, "h1"); any {
		t.Fatalf("which %v: a round past the cell's 16", n.which)
	}
}
