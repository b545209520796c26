package analysis

import (
	"math"
	"testing"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
)

// TestFindingFigures: a finding carries the figures its evidence states
// as numbers (the ratio to the baseline first, where the evidence gives
// one), so results.json holds what the sentence says; the baseline's own
// finding has no ratio to carry.
func TestFindingFigures(t *testing.T) {
	const gb = 1 << 30
	small := results.Repetition{Bytes: gb, ClientBodyReads: gb / (8 << 10), ClientH2: h2c(2*gb/(8<<10), gb/(16<<10), gb)}
	var f *results.Finding
	for _, x := range diagnosed("download", results.MetricBytesPerSecond, results.Repetition{Bytes: gb}, small, "h2c", nil) {
		if x.Rule == "h2-small-reads" {
			f = &x
		}
	}
	if f == nil {
		t.Fatal("h2-small-reads did not fire")
	}
	want := []results.Figure{{Name: "ratio to h1", Value: 0.4, Unit: "x"}, {Name: "client body read", Value: 8 << 10, Unit: "bytes"}}
	if len(f.Figures) != len(want) {
		t.Fatalf("figures %+v, want %+v", f.Figures, want)
	}
	for i, w := range want {
		g := f.Figures[i]
		if g.Name != w.Name || g.Unit != w.Unit || math.Abs(g.Value-w.Value) > 1e-9*math.Max(1, w.Value) {
			t.Errorf("figure %d: %+v, want %+v", i, g, w)
		}
	}
	// The same rule's figures without a ratio to state: none for it.
	c := &results.Cell{Protocol: "h1", Baseline: "h1", RatioToBaseline: 1}
	if got := figures(c, results.Figure{Name: "x", Value: 1}); len(got) != 1 || got[0].Name != "x" {
		t.Errorf("the baseline's figures %+v: want x alone", got)
	}
	// An errors finding counts them.
	errs := results.Repetition{Requests: 10, Errors: stats.ErrorCounts{Total: 3, Reset: 3}, FirstError: "reset"}
	fired := false
	for _, x := range diagnosed("small-sequential", results.MetricRequestsPerSecond, results.Repetition{Requests: 10}, errs, "h2c", nil) {
		if x.Rule == "errors" {
			fired = true
			if len(x.Figures) != 1 || x.Figures[0].Value != 3 {
				t.Errorf("errors figures %+v: want 3 errors", x.Figures)
			}
		}
	}
	if !fired {
		t.Error("errors did not fire on 3 failed requests")
	}
}
