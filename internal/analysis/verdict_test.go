package analysis

import (
	"math"
	"testing"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
)

func cellOf(values ...float64) *results.Cell {
	c := &results.Cell{}
	for _, v := range values {
		c.Repetitions = append(c.Repetitions, results.Repetition{Value: v})
	}
	return c
}

func TestRatioIntervalPairsRounds(t *testing.T) {
	h1 := cellOf(100, 200, 400)
	// Each round's ratio is 0.5 although the rounds differ fourfold: the
	// pairing takes the drift out.
	iv := ratioInterval(cellOf(50, 100, 200), h1)
	if iv.Pairs != 3 || math.Abs(iv.Ratio-0.5) > 1e-12 || math.Abs(iv.Low-0.5) > 1e-12 || iv.Verdict != results.VerdictSlower || !Stable(iv) {
		t.Fatalf("%+v", iv)
	}
	// Ratios 0.9, 1.1, 1.0: the interval holds 1 but reaches 0.78 and
	// 1.28, a difference beyond Matters: the rounds cannot tell.
	iv = ratioInterval(cellOf(90, 220, 400), h1)
	if iv.Verdict != results.VerdictUndetermined || iv.Low >= 1 || iv.High <= 1 {
		t.Fatalf("%+v", iv)
	}
	// Ratios 0.97, 1.03, 1.0: it holds 1 and excludes 25%: similar.
	iv = ratioInterval(cellOf(97, 206, 400), h1)
	if iv.Verdict != results.VerdictSimilar || iv.Low < 1/(1+Matters) || iv.High > 1+Matters {
		t.Fatalf("%+v", iv)
	}
	// ln ratios 0.1, 0.2, 0.3: mean 0.2, sd 0.1, half-width t(2)*0.1/sqrt(3).
	iv = ratioInterval(cellOf(100*math.Exp(0.1), 200*math.Exp(0.2), 400*math.Exp(0.3)), h1)
	half := 4.302652729749464 * 0.1 / math.Sqrt(3)
	if math.Abs(iv.Low-math.Exp(0.2-half)) > 1e-9 || math.Abs(iv.High-math.Exp(0.2+half)) > 1e-9 || iv.Verdict != results.VerdictUndetermined {
		t.Fatalf("%+v, want %v..%v, undetermined", iv, math.Exp(0.2-half), math.Exp(0.2+half))
	}
	if Stable(iv) {
		t.Fatalf("half-width %v called stable", HalfWidth(iv))
	}
	// ln ratios 0.18, 0.2, 0.22: sd 0.02, the interval clear of 1.
	iv = ratioInterval(cellOf(100*math.Exp(0.18), 200*math.Exp(0.2), 400*math.Exp(0.22)), h1)
	if iv.Verdict != results.VerdictFaster || !Stable(iv) {
		t.Fatalf("%+v", iv)
	}
}

// TestNegligibleDifferenceIsSimilar: 0.99x known to ±0.1% excludes 1 but
// is no difference to act on; 0.97x known as well is slower.
func TestNegligibleDifferenceIsSimilar(t *testing.T) {
	h1 := cellOf(100, 100, 100)
	if iv := ratioInterval(cellOf(99, 99.05, 98.95), h1); iv.Verdict != results.VerdictSimilar || iv.High >= 1 {
		t.Fatalf("%+v: want similar although below 1", iv)
	}
	if iv := ratioInterval(cellOf(97, 97.05, 96.95), h1); iv.Verdict != results.VerdictSlower {
		t.Fatalf("%+v: want slower", iv)
	}
}

func TestRatioIntervalLeavesOutFailedRounds(t *testing.T) {
	h1 := cellOf(100, 100, 100)
	c := cellOf(50, 10, 50)
	c.Repetitions[1].Errors = stats.ErrorCounts{Total: 1, Reset: 1}
	iv := ratioInterval(c, h1)
	if iv.Pairs != 2 || iv.Ratio != 0.5 {
		t.Fatalf("%+v", iv)
	}
	h1.Repetitions[0].Interrupted = true
	if iv = ratioInterval(c, h1); iv.Pairs != 1 || iv.Verdict != results.VerdictUnknown || Stable(iv) {
		t.Fatalf("one pair: %+v", iv)
	}
}

// TestPrecisionLimits names the side whose cost per unit moved: h2c's
// server cost swings twofold from round to round while the clients' hold
// still, so the wide cell is put on h2c's server, with the rounds its
// spread would need; a stable cell is not listed.
func TestPrecisionLimits(t *testing.T) {
	cost := func(v float64) *float64 { return &v }
	res := &results.Results{Settings: results.Settings{Baseline: "h1"}}
	h1, h2c, h2 := results.Cell{Scenario: "download", Protocol: "h1", CPUUnit: "GB"}, results.Cell{Scenario: "download", Protocol: "h2c"}, results.Cell{Scenario: "download", Protocol: "h2"}
	for i, v := range []float64{50, 100, 50, 100, 50, 100} {
		h1.Repetitions = append(h1.Repetitions, results.Repetition{Round: i + 1, Value: 1000, ClientCPUPerUnit: 0.3, ServerCPUPerUnit: cost(0.2)})
		h2c.Repetitions = append(h2c.Repetitions, results.Repetition{Round: i + 1, Value: v * 5, ClientCPUPerUnit: 1, ServerCPUPerUnit: cost(100 / v)})
		h2.Repetitions = append(h2.Repetitions, results.Repetition{Round: i + 1, Value: 400, ClientCPUPerUnit: 1, ServerCPUPerUnit: cost(1)})
	}
	res.Cells = []results.Cell{h1, h2c, h2}
	for i := range res.Cells {
		SummariseCell(&res.Cells[i])
	}
	SetRatios(res.Cells, "h1")
	limits := PrecisionLimits(res)
	if len(limits) != 1 {
		t.Fatalf("%d limits %+v, want h2c's alone", len(limits), limits)
	}
	p := limits[0]
	// ln 2 apart, alternating: sd 0.38 of the log; the clients' 0.
	if p.Protocol != "h2c" || p.Side != "server" || p.Column != "h2c" || math.Abs(p.Moved-0.3797) > 1e-3 || p.Other != 0 || p.Pairs != 6 {
		t.Fatalf("%+v: want h2c's server moving ±38%%, 6 pairs", p)
	}
	if want := RoundsFor(0.3797, StableHalfWidth, 100); p.Needed < want-1 || p.Needed > want+1 || want < 50 {
		t.Fatalf("needed %d rounds at sd 0.38", p.Needed)
	}
}

// TestPrecisionNeedsThePooledSpread: rounds past a first stage of two
// that happened to spread wide. The two-stage interval keeps that stage's
// width, but a run of fixed rounds needs those of the spread over all
// the rounds.
func TestPrecisionNeedsThePooledSpread(t *testing.T) {
	h1, h2c := results.Cell{Scenario: "download", Protocol: "h1"}, results.Cell{Scenario: "download", Protocol: "h2c", FirstStage: 2}
	for i, v := range []float64{300, 700, 480, 520, 490, 510, 500, 500} {
		h1.Repetitions = append(h1.Repetitions, results.Repetition{Round: i + 1, Value: 1000})
		h2c.Repetitions = append(h2c.Repetitions, results.Repetition{Round: i + 1, Value: v})
	}
	res := &results.Results{Settings: results.Settings{Baseline: "h1"}, Cells: []results.Cell{h1, h2c}}
	for i := range res.Cells {
		SummariseCell(&res.Cells[i])
	}
	SetRatios(res.Cells, "h1")
	pooled := LogInterval(logRatios("", PairRounds(&res.Cells[1], &res.Cells[0])))
	limits := PrecisionLimits(res)
	if len(limits) != 1 || HalfWidth(*res.Cells[1].VsBaseline) <= HalfWidth(pooled) {
		t.Fatalf("%+v: want one limit, its two-stage interval (±%.0f%%) wider than the pooled one (±%.0f%%)", limits, 100*HalfWidth(*res.Cells[1].VsBaseline), 100*HalfWidth(pooled))
	}
	// Read from the two-stage width, 100 rounds would not do (0).
	wide := RoundsFor(roundSpread(*res.Cells[1].VsBaseline), StableHalfWidth, 100)
	if got, want := limits[0].Needed, RoundsFor(roundSpread(pooled), StableHalfWidth, 100); got != want || want == 0 || (wide != 0 && wide <= got) {
		t.Fatalf("needed %d rounds, want %d (the pooled spread's; the two-stage width's: %d)", got, want, wide)
	}
}
