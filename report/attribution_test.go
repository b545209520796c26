package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestAttributionListsSlowerCellsAndNextSteps: explain shows the cells
// the verdict calls slower and no other, says which flag gets a rough
// side enough samples and what it costs, and ends with the next step,
// naming profile files without ':' in the directory the run recorded.
func TestAttributionListsSlowerCellsAndNextSteps(t *testing.T) {
	side := func(name string, samples int, extra float64) *results.AttributionSide {
		return &results.AttributionSide{Side: name, Samples: samples, BaseSamples: 150, SecondsPerUnit: 0.5 + extra, BaseSecondsPerUnit: 0.5, ExtraSecondsPerUnit: extra, GrowthSecondsPerUnit: extra}
	}
	res := &results.Results{Settings: results.Settings{Protocols: []string{"h1", "h2", "h1-tls"}, Baseline: "h1", ProfileSpanSeconds: 2, ProfileDir: "/tmp/run/profiles"}, Cells: []results.Cell{
		{Scenario: "download:tuned", Protocol: "h2", CPUUnit: "GB", VsBaseline: &results.Interval{Ratio: 0.5, Low: 0.4, High: 0.6, Pairs: 5, Verdict: results.VerdictSlower},
			Attribution: []*results.AttributionSide{side("client", 25, 0.1), side("server", 400, 0.3)}},
		{Scenario: "small-sequential", Protocol: "h1-tls", CPUUnit: "1000 requests", VsBaseline: &results.Interval{Ratio: 0.97, Low: 0.9, High: 1.05, Pairs: 5, Verdict: results.VerdictSimilar},
			Attribution: []*results.AttributionSide{side("client", 300, 0.01)}},
	}}
	var b bytes.Buffer
	if !Attribution(&b, res) {
		t.Fatal("nothing written")
	}
	out := b.String()
	for _, want := range []string{
		"download:tuned/h2 (",
		"left out: 1 attributed cell(s) the verdict does not call slower",
		"rough: 1 side(s) held fewer than 100 CPU samples in a round of 2s (the fewest 25",
		"--profile /tmp/run/profiles --profile-span 8s: 2 profiling rounds of 8s, adding about 12s",
		"next: the server's profiles in full, download:tuned/h2 against h1: go tool pprof -top -diff_base /tmp/run/profiles/download+tuned_h1.server.cpu.pprof /tmp/run/profiles/download+tuned_h2.server.cpu.pprof;",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "small-sequential/h1-tls") {
		t.Errorf("a cell the verdict calls ≈ is explained:\n%s", out)
	}
	if lines := strings.Split(strings.TrimSpace(out), "\n"); !strings.HasPrefix(lines[len(lines)-1], "next: ") {
		t.Errorf("the last line is not the next step:\n%s", out)
	}
	if strings.Contains(out, "DIR") {
		t.Errorf("a placeholder where the run recorded its directory:\n%s", out)
	}
	// A run that recorded no directory (written before it was): a
	// placeholder, said as one.
	res.Settings.ProfileDir = ""
	b.Reset()
	Attribution(&b, res)
	if !strings.Contains(b.String(), "-diff_base PROFILES/download+tuned_h1.server.cpu.pprof PROFILES/download+tuned_h2.server.cpu.pprof (PROFILES: the directory the run's profiles went to)") {
		t.Errorf("no directory recorded:\n%s", b.String())
	}
	res.Cells = res.Cells[1:]
	if Attribution(&b, res) {
		t.Errorf("a run with no slower cell attributed explained something")
	}
}
