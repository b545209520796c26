package analysis

import (
	"math"
	"slices"
	"testing"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
)

// TestOneRuleForWhichRepetitionsCount feeds the summary, the median
// repetition, the pairing and the diagnosis' bounds the same errored,
// interrupted and zero repetitions: each must use rounds 1, 5 and 6 only.
func TestOneRuleForWhichRepetitionsCount(t *testing.T) {
	var failed stats.ErrorCounts
	failed.Count(stats.ErrReset)
	c := &results.Cell{Scenario: "download", Protocol: "h2c", Metric: results.MetricBytesPerSecond, Repetitions: []results.Repetition{
		{Round: 1, Value: 100},
		{Round: 2, Value: 1000, Errors: failed}, // a failed request: not a measurement of the transport
		{Round: 3, Value: 5, Interrupted: true}, // cut short: measured the interrupt
		{Round: 4, Value: 0},                    // nothing moved: no rate, no ratio
		{Round: 5, Value: 200},
		{Round: 6, Value: 300},
	}}
	base := &results.Cell{Scenario: "download", Protocol: "h1", Metric: results.MetricBytesPerSecond}
	for round := 1; round <= 6; round++ {
		base.Repetitions = append(base.Repetitions, results.Repetition{Round: round, Value: 100})
	}
	counted := []int{1, 5, 6}

	var rounds []int
	for _, r := range c.Repetitions {
		if Counts(r) {
			rounds = append(rounds, r.Round)
		}
	}
	if !slices.Equal(rounds, counted) {
		t.Fatalf("Counts keeps rounds %v, want %v", rounds, counted)
	}

	SummariseCell(c)
	if c.Min != 100 || c.Median != 200 || c.Max != 300 {
		t.Errorf("summary: min %g, median %g, max %g; want 100, 200, 300 (rounds %v)", c.Min, c.Median, c.Max, counted)
	}
	if c.Errors.Total != 1 {
		t.Errorf("summary: %d errors, want the errored repetition's 1 (errors are counted, never dropped)", c.Errors.Total)
	}

	if m := MedianRepetition(c); m.Round != 5 {
		t.Errorf("median repetition: round %d, want 5", m.Round)
	}

	rounds = nil
	for _, p := range PairRounds(c, base) {
		rounds = append(rounds, p.Round)
	}
	if !slices.Equal(rounds, counted) {
		t.Errorf("pairing: rounds %v, want %v", rounds, counted)
	}

	b := &results.Bound{Value: 1}
	place(b, c)
	iv := LogInterval([]float64{math.Log(100), math.Log(200), math.Log(300)})
	if lo, hi := math.Min(iv.Low, 200), math.Max(iv.High, 200); b.Low != lo || b.High != hi {
		t.Errorf("diagnosis' bound: interval [%g, %g], want [%g, %g] from rounds %v", b.Low, b.High, lo, hi, counted)
	}
}
