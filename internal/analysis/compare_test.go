package analysis

import (
	"math"
	"testing"

	"github.com/httpvs/httpvs/results"
)

func TestHolm(t *testing.T) {
	ds := []delta{{Delta: results.Delta{Tested: TestedRatio, PRaw: 0.01}}, {Delta: results.Delta{Tested: TestedRatio, PRaw: 0.04}}, {}, {Delta: results.Delta{Tested: TestedValue, PRaw: 0.03}}}
	for i := range ds {
		ds[i].Alpha = compareAlpha
	}
	holm(ds)
	want := []float64{0.03, 0.06, 0, 0.06}
	for i, w := range want {
		if math.Abs(ds[i].P-w) > 1e-12 {
			t.Errorf("delta %d: p %g, want %g", i, ds[i].P, w)
		}
	}
	if !ds[0].Significant || ds[1].Significant || ds[3].Significant {
		t.Errorf("significant: %v %v %v", ds[0].Significant, ds[1].Significant, ds[3].Significant)
	}
}

// runOf is a run of rounds of h1 and h2c downloads: h1 at base bytes/s
// with the round's drift, h2c at ratio times h1 with jitter.
func runOf(ratio float64, drift, jitter []float64) *results.Results {
	res := &results.Results{Settings: results.Settings{Protocols: []string{"h1", "h2c"}, Baseline: "h1"}}
	h1 := results.Cell{Scenario: "download", Protocol: "h1", Metric: results.MetricBytesPerSecond}
	h2 := results.Cell{Scenario: "download", Protocol: "h2c", Metric: results.MetricBytesPerSecond}
	for i, d := range drift {
		h1.Repetitions = append(h1.Repetitions, results.Repetition{Round: i + 1, Value: 1e9 * d})
		h2.Repetitions = append(h2.Repetitions, results.Repetition{Round: i + 1, Value: 1e9 * d * ratio * jitter[i]})
	}
	res.Cells = []results.Cell{h1, h2}
	for i := range res.Cells {
		SummariseCell(&res.Cells[i])
	}
	return res
}

// TestCompareTestsTheRatio: the machine's drift moves both transports of
// a round alike, so a run 30% slower throughout changes no ratio and is
// not flagged on h2c, while h2c's own gain from 0.25x to 0.5x is, against
// the same drift.
func TestCompareTestsTheRatio(t *testing.T) {
	jitter := []float64{1.00, 1.02, 0.98, 1.01, 0.99}
	old := runOf(0.25, []float64{1, 1.1, 0.9, 1.05, 0.95}, jitter)
	slower := runOf(0.25, []float64{0.7, 0.75, 0.65, 0.72, 0.68}, []float64{0.99, 1.01, 1.0, 0.98, 1.02})
	ds := Compare(old, slower)
	if len(ds) != 2 {
		t.Fatalf("%d deltas", len(ds))
	}
	h1, h2 := ds[0], ds[1]
	if h1.Tested != TestedValue || h2.Tested != TestedRatio || h2.OldN != 5 || h2.NewN != 5 {
		t.Fatalf("tested %+v / %+v", h1, h2)
	}
	if h2.Significant || math.Abs(h2.RatioChange) > 0.03 || h2.Change > -0.2 {
		t.Errorf("h2c in a slower run: %+v: want its ratio unchanged, not significant, its value 30%% down", h2)
	}
	better := runOf(0.5, []float64{0.7, 0.75, 0.65, 0.72, 0.68}, jitter)
	ds = Compare(old, better)
	if h2 := ds[1]; !h2.Significant || math.Abs(h2.OldRatio-0.25) > 0.01 || math.Abs(h2.NewRatio-0.5) > 0.01 || h2.P < h2.PRaw {
		t.Errorf("h2c 0.25x -> 0.5x: %+v: want significant, corrected", h2)
	}
}

// TestBaselineMoves: knobs that speed h1 up by 30% leave h2c's ratio
// where it was, although h2c gained as much; the baseline's own move is
// what says so. Two runs alike move nothing.
func TestBaselineMoves(t *testing.T) {
	jitter := []float64{1.00, 1.02, 0.98, 1.01, 0.99}
	old := runOf(0.25, []float64{1, 1.02, 0.98, 1.01, 0.99}, jitter)
	faster := runOf(0.25, []float64{1.3, 1.32, 1.28, 1.31, 1.29}, jitter)
	ds := Compare(old, faster)
	if !ds[0].Baseline || ds[1].Baseline {
		t.Fatalf("baseline flags %v %v, want h1 only", ds[0].Baseline, ds[1].Baseline)
	}
	moved := BaselineMoves(ds)
	if len(moved) != 1 || moved[0].Protocol != "h1" || math.Abs(moved[0].Change-0.3) > 0.02 {
		t.Fatalf("moves %+v, want h1 +30%%", moved)
	}
	if h2 := ds[1]; math.Abs(h2.RatioChange) > 0.02 || math.Abs(h2.Change-0.3) > 0.03 {
		t.Errorf("h2c: ratio change %+.3f, value change %+.3f: want the ratio flat and the value +30%%", h2.RatioChange, h2.Change)
	}
	if h2 := ds[1]; !h2.ValueSignificant || h2.ValueP <= 0 || ds[0].ValueP != ds[0].P {
		t.Errorf("values: h2c's +30%% p %g significant %v, h1's value p %g vs its test's %g: want h2c's own gain significant, h1's the one test",
			h2.ValueP, h2.ValueSignificant, ds[0].ValueP, ds[0].P)
	}
	if same := Compare(old, old); same[1].ValueSignificant {
		t.Errorf("a run against itself: h2c's value significant (p %g)", same[1].ValueP)
	}
	if moved := BaselineMoves(Compare(old, old)); len(moved) != 0 {
		t.Errorf("a run against itself: moves %+v", moved)
	}
}
