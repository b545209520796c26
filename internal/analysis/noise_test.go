package analysis

import (
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestKindOf: each scenario's kind of work, variants as their base.
func TestKindOf(t *testing.T) {
	for _, tc := range []struct{ scenario, metric, want string }{
		{"download", results.MetricBytesPerSecond, KindTransfer},
		{"download:tuned", results.MetricBytesPerSecond, KindTransfer},
		{"small-sequential", results.MetricRequestsPerSecond, KindRequests},
		{"request-1-x50", results.MetricRequestsPerSecond, KindRequests},
		{"grpc-50", results.MetricRequestsPerSecond, KindGRPC},
		{"grpc-1:tuned", results.MetricRequestsPerSecond, KindGRPC},
		{"cold-start", results.MetricSeconds, KindTimed},
	} {
		if got := KindOf(tc.scenario, tc.metric); got != tc.want {
			t.Errorf("KindOf(%s) = %q, want %q", tc.scenario, got, tc.want)
		}
	}
}

// TestNoiseFloors: A/A cells summarised per kind, a false call counted
// in its own kind only; WithinFloor marks a call closer to 1 than its
// kind's floor reaches and nothing else.
func TestNoiseFloors(t *testing.T) {
	aa := func(sc, metric string, lo, hi float64, verdict string) results.Cell {
		return results.Cell{Scenario: sc, Metric: metric, VsBaseline: &results.Interval{Ratio: (lo + hi) / 2, Low: lo, High: hi, Pairs: 8, Verdict: verdict}}
	}
	r := &results.Results{AA: []results.Cell{
		aa("download", results.MetricBytesPerSecond, 0.95, 1.06, results.VerdictSimilar),
		aa("small-sequential", results.MetricRequestsPerSecond, 0.71, 1.20, results.VerdictUndetermined),
		aa("upload", results.MetricBytesPerSecond, 0.80, 0.97, results.VerdictSlower),
		{Scenario: "grpc-1", Metric: results.MetricRequestsPerSecond}, // one round: no interval
	}}
	got := NoiseFloors(r)
	if len(got) != 3 {
		t.Fatalf("%d kinds, want 3: %+v", len(got), got)
	}
	tr, rq, g := got[0], got[1], got[2]
	if tr.Kind != KindTransfer || tr.Cells != 2 || tr.FalseCalls != 1 || tr.Resolution < 0.199 || tr.Resolution > 0.201 {
		t.Errorf("transfers: %+v", tr)
	}
	if rq.Kind != KindRequests || rq.Cells != 1 || rq.FalseCalls != 0 || rq.Resolution < 0.289 || rq.Resolution > 0.291 {
		t.Errorf("requests: %+v", rq)
	}
	if g.Kind != KindGRPC || g.Cells != 0 {
		t.Errorf("gRPC: %+v", g)
	}
	if _, ok := FloorOf(r, &results.Cell{Scenario: "grpc-50", Metric: results.MetricRequestsPerSecond}); ok {
		t.Error("a floor for gRPC without an A/A interval")
	}
	call := func(ratio float64, verdict string) *results.Cell {
		return &results.Cell{Scenario: "small-concurrent", Metric: results.MetricRequestsPerSecond, VsBaseline: &results.Interval{Ratio: ratio, Low: ratio - 0.05, High: ratio + 0.05, Pairs: 8, Verdict: verdict}}
	}
	for _, tc := range []struct {
		c    *results.Cell
		want bool
	}{
		{call(0.91, results.VerdictSlower), true},
		{call(1.20, results.VerdictFaster), true},
		{call(0.65, results.VerdictSlower), false},
		{call(0.91, results.VerdictUndetermined), false},
	} {
		if got := WithinFloor(tc.c, rq); got != tc.want {
			t.Errorf("WithinFloor(%.2fx %s) = %v", tc.c.VsBaseline.Ratio, tc.c.VsBaseline.Verdict, got)
		}
	}
}
