package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// marginRun is a run of twelve download-like scenarios, h1 and h2c in
// each, five rounds: h2c at ratio·exp(shift) of h1 in s0 and at ratio in
// the others, each round within ±1% of it.
func marginRun(ratio, shift float64) *results.Results {
	res := &results.Results{SchemaVersion: results.SchemaVersion, Settings: results.Settings{Protocols: []string{"h1", "h2c"}, Baseline: "h1", Repeat: 5, DurationSeconds: 0.075}}
	dev := []float64{-0.01, 0.01, 0, 0.005, -0.005}
	for s := range 12 {
		h1 := results.Cell{Scenario: fmt.Sprintf("s%d", s), Protocol: "h1", Metric: results.MetricBytesPerSecond}
		h2 := results.Cell{Scenario: h1.Scenario, Protocol: "h2c", Metric: results.MetricBytesPerSecond}
		r := ratio
		if s == 0 {
			r *= math.Exp(shift)
		}
		for i, d := range dev {
			v := 1e9 * (1 + 0.1*float64(i%2))
			h1.Repetitions = append(h1.Repetitions, results.Repetition{Round: i + 1, Value: v})
			h2.Repetitions = append(h2.Repetitions, results.Repetition{Round: i + 1, Value: v * r * math.Exp(d)})
		}
		res.Cells = append(res.Cells, h1, h2)
	}
	for i := range res.Cells {
		analysis.SummariseCell(&res.Cells[i])
	}
	return res
}

// TestCompareMarginFlags: a cell's ratio 10% higher in the new run, its
// rounds within ±1%. The rounds alone (--margin none) fail the gate on
// it; a margin of 10% a run (--margin FILE) passes it and says so; three
// runs of one build whose ratios spread by 10% (--margin-from GLOB) give
// a margin the output names; bad margins exit 2 in one line.
func TestCompareMarginFlags(t *testing.T) {
	dir := t.TempDir()
	old := writeResults(t, marginRun(0.5, 0), dir, "old.json")
	shifted := writeResults(t, marginRun(0.5, math.Log(1.1)), dir, "new.json")
	if code, stdout, _ := runMain(t, "compare", "--fail-on", "changed", "--margin", "none", old, shifted); code != 1 || !strings.Contains(stdout, "margin: none") {
		t.Errorf("--margin none: exit %d, want 1:\n%s", code, stdout)
	}
	m := results.BetweenRuns{Source: "three runs of one build", Runs: 3, Kinds: []results.BetweenRunsKind{{Kind: analysis.KindTransfer, SD: 0.1, DF: 100, Cells: 12}}}
	b, _ := json.Marshal(m)
	file := filepath.Join(dir, "margin.json")
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runMain(t, "compare", "--fail-on", "changed", "--margin", file, old, shifted)
	if code != 0 || !strings.Contains(stdout, "transfer ±11%") || !strings.Contains(stdout, "estimated from three runs of one build") {
		t.Errorf("--margin FILE: exit %d, want 0 and the margin named:\n%s\n%s", code, stdout, stderr)
	}
	for i, s := range []float64{-0.1, 0, 0.1} {
		writeResults(t, marginRun(0.5*math.Exp(s), 0), dir, fmt.Sprintf("main-%d.results.json", i))
	}
	code, stdout, stderr = runMain(t, "compare", "--json", "--margin-from", filepath.Join(dir, "main-*.results.json"), old, shifted)
	var c results.Comparison
	if err := json.Unmarshal([]byte(stdout), &c); err != nil || code != 0 || c.Margin == nil || c.Margin.Runs != 3 || len(c.Margin.Kinds) != 1 || c.Margin.Kinds[0].SD < 0.09 {
		t.Errorf("--margin-from: exit %d, %v, margin %+v\n%s", code, err, c.Margin, stderr)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"runs": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--margin", bad}, {"--margin", filepath.Join(dir, "none.json")}, {"--margin-from", old}, {"--margin", file, "--margin-from", old}} {
		code, _, stderr := runMain(t, append(append([]string{"compare"}, args...), old, shifted)...)
		if code != exitUsage || !strings.Contains(stderr, "--margin") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("compare %v: exit %d, stderr %q: want 2 and one line", args, code, stderr)
		}
	}
}
