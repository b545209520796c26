package report

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// TestNoiseLine: the A/A cells' intervals with the verdict's own words,
// the false calls counted when one did (never "resolves differences
// beyond": an A/A that stops once ≈ only restates the band), and nothing
// without A/A cells.
func TestNoiseLine(t *testing.T) {
	res := &results.Results{Settings: results.Settings{Baseline: "h1"}}
	if got := noiseLine(res); got != "" {
		t.Fatalf("no A/A cells: %q", got)
	}
	bps, rps := results.MetricBytesPerSecond, results.MetricRequestsPerSecond
	res.AA = []results.Cell{
		{Scenario: "download", Metric: bps, Protocol: analysis.AAColumn("h1"), VsBaseline: &results.Interval{Ratio: 1.01, Low: 0.95, High: 1.07, Pairs: 8, Verdict: results.VerdictSimilar}},
		{Scenario: "upload", Metric: bps, Protocol: analysis.AAColumn("h1"), VsBaseline: &results.Interval{Ratio: 0.98, Low: 0.90, High: 1.04, Pairs: 8, Verdict: results.VerdictSimilar}},
		{Scenario: "small-sequential", Metric: rps, Protocol: analysis.AAColumn("h1"), VsBaseline: &results.Interval{Ratio: 1.06, Low: 0.80, High: 1.41, Pairs: 8, Verdict: results.VerdictUndetermined}},
		{Scenario: "grpc-1", Metric: rps, Protocol: analysis.AAColumn("h1"), VsBaseline: &results.Interval{Ratio: 1.0, Low: 0.97, High: 1.03, Pairs: 8, Verdict: results.VerdictSimilar}},
	}
	got := noiseLine(res)
	for _, want := range []string{
		"A/A: h1 measured twice",
		"download 1.01x [0.95, 1.07] ≈ h1 (as it should be)",
		"small-sequential 1.06x [0.80, 1.41] undetermined (too wide to tell; not a false call)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	if strings.Count(got, "as it should be") != 3 {
		t.Errorf("an undetermined A/A read as ≈: %q", got)
	}
	res.AA[1].VsBaseline = &results.Interval{Ratio: 0.85, Low: 0.75, High: 0.96, Pairs: 8, Verdict: results.VerdictSlower}
	res.Settings.Pin = &results.Pin{ClientCPUs: []int{0}, ServerCPUs: []int{1}, ClientGOMAXPROCS: 1, ServerGOMAXPROCS: 1}
	analysis.Judge(res)
	got = noiseLine(res)
	for _, want := range []string{"upload 0.85x [0.75, 0.96] slower (a false call)", "1 of 4 A/A cells called a difference where there is none (at 95%, about one in twenty is expected by chance)", "pinned to one core each"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "resolve") {
		t.Errorf("a transfer resolution claimed beside a transfer false call: %q", got)
	}
}

// TestVerdictMarksCallsWithinTheFloor plants a cell called slower by 9%
// in a kind whose A/A reached ±29%: the table marks it and the noise line
// names it; a transfer called slower by more than its own floor, and a
// cell of a kind without an A/A, stay unmarked.
func TestVerdictMarksCallsWithinTheFloor(t *testing.T) {
	bps, rps := results.MetricBytesPerSecond, results.MetricRequestsPerSecond
	rep := []results.Repetition{{Value: 1}, {Value: 1}}
	cell := func(sc, p, metric string, ratio, lo, hi float64, verdict string) results.Cell {
		c := results.Cell{Scenario: sc, Protocol: p, Metric: metric, Baseline: "h1", RatioToBaseline: ratio, Repetitions: rep, Median: 1}
		if p != "h1" {
			c.VsBaseline = &results.Interval{Ratio: ratio, Low: lo, High: hi, Pairs: 8, Verdict: verdict}
		}
		return c
	}
	res := &results.Results{Settings: results.Settings{Baseline: "h1"}}
	res.Cells = []results.Cell{
		cell("download", "h1", bps, 0, 0, 0, ""),
		cell("download", "h2", bps, 0.85, 0.80, 0.90, results.VerdictSlower),
		cell("small-sequential", "h1", rps, 0, 0, 0, ""),
		cell("small-sequential", "h1-tls", rps, 0.91, 0.86, 0.97, results.VerdictSlower),
		cell("grpc-1", "h1", rps, 0, 0, 0, ""),
		cell("grpc-1", "h2c", rps, 0.91, 0.86, 0.97, results.VerdictSlower),
	}
	res.AA = []results.Cell{
		cell("download", analysis.AAColumn("h1"), bps, 1.0, 0.95, 1.06, results.VerdictSimilar),
		cell("small-sequential", analysis.AAColumn("h1"), rps, 1.02, 0.71, 1.29, results.VerdictUndetermined),
	}
	analysis.Judge(res)
	texts := map[string]string{}
	for i := range res.Cells {
		c := &res.Cells[i]
		texts[c.Scenario+"/"+c.Protocol] = cellText(c, res.Settings.BaselineProtocol(), nil)
	}
	if got := texts["small-sequential/h1-tls"]; !strings.HasSuffix(got, "slower "+floorMark) {
		t.Errorf("small-sequential/h1-tls within its floor: %q", got)
	}
	for _, k := range []string{"download/h2", "grpc-1/h2c"} {
		if strings.Contains(texts[k], floorMark) {
			t.Errorf("%s marked: %q", k, texts[k])
		}
	}
	if want := floorMark + ": called slower or faster by less than its kind's A/A reached with no difference to find: small-sequential/h1-tls"; !strings.Contains(noiseLine(res), want) {
		t.Errorf("%q lacks %q", noiseLine(res), want)
	}
}
