package report

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestNoiseLine: the A/A cells' intervals in words, the resolution when
// none called a difference, the false call named when one did, and
// nothing without A/A cells.
func TestNoiseLine(t *testing.T) {
	res := &results.Results{Settings: results.Settings{Baseline: "h1"}}
	if got := noiseLine(res); got != "" {
		t.Fatalf("no A/A cells: %q", got)
	}
	res.AA = []results.Cell{
		{Scenario: "download", Protocol: results.AAColumn("h1"), VsH1: &results.Interval{Ratio: 1.01, Low: 0.95, High: 1.07, Pairs: 8, Verdict: results.VerdictSimilar}},
		{Scenario: "upload", Protocol: results.AAColumn("h1"), VsH1: &results.Interval{Ratio: 0.98, Low: 0.90, High: 1.04, Pairs: 8, Verdict: results.VerdictSimilar}},
	}
	got := noiseLine(res)
	for _, want := range []string{"A/A: h1 measured twice", "download 1.01x [0.95, 1.07] (≈, as it should be)", "resolves differences beyond ±10%"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	res.AA[1].VsH1 = &results.Interval{Ratio: 0.85, Low: 0.75, High: 0.96, Pairs: 8, Verdict: results.VerdictSlower}
	res.Settings.Pin = &results.Pin{ClientCPUs: []int{0}, ServerCPUs: []int{1}, ClientGOMAXPROCS: 1, ServerGOMAXPROCS: 1}
	got = noiseLine(res)
	for _, want := range []string{"(a false call: slower)", "1 of 2 called a difference where there is none", "within ±25% of 1", "pinned to one core each"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "resolves differences") {
		t.Errorf("a resolution claimed beside a false call: %q", got)
	}
}
