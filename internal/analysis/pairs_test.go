package analysis

import (
	"math"
	"testing"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
)

// TestPairRounds pairs by round, leaving out rounds either side lacks,
// interrupted or failed ones; the verdict's interval pairs the same
// rounds.
func TestPairRounds(t *testing.T) {
	base := &results.Cell{Metric: results.MetricBytesPerSecond, Repetitions: []results.Repetition{
		{Round: 1, Value: 10}, {Round: 2, Value: 10}, {Round: 3, Value: 10}, {Round: 4, Value: 10, Interrupted: true}, {Round: 5, Value: 10},
	}}
	c := &results.Cell{Metric: results.MetricBytesPerSecond, Repetitions: []results.Repetition{
		{Round: 5, Value: 5}, {Round: 1, Value: 20}, {Round: 2, Value: 8, Errors: stats.ErrorCounts{Total: 1}}, {Round: 4, Value: 9}, {Round: 6, Value: 9},
	}}
	got := PairRounds(c, base)
	if len(got) != 2 || got[0].Round != 5 || got[1].Round != 1 || got[0].Base.Value != 10 {
		t.Fatalf("pairs %+v: want rounds 5 and 1", got)
	}
	logs := pairedLogRatios(c, base)
	if len(logs) != len(got) || math.Abs(logs[0]-math.Log(0.5)) > 1e-12 {
		t.Errorf("the verdict paired %v, PairRounds %+v", logs, got)
	}
}
