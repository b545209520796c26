package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// realRunFile runs a small real run (small-sequential over h1 and h2c,
// three short rounds, against a payload server on loopback) and writes
// its results.json to dir, returning its path and the results.
func realRunFile(t *testing.T, dir string) (string, *results.Results) {
	t.Helper()
	ts, _ := testServer(t)
	code, stdout, stderr := runMain(t, "run", "--target", ts.URL(transport.H1), "--no-files", "--quick", "--repeat", "3",
		"--scenarios", "small-sequential", "--protocols", "h1,h2c", "--format", "json")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	var res results.Results
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "old.json")
	if err := os.WriteFile(path, []byte(stdout), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, &res
}

// copyResults is a deep copy of res.
func copyResults(t *testing.T, res *results.Results) *results.Results {
	t.Helper()
	b, _ := json.Marshal(res)
	var cp results.Results
	if err := json.Unmarshal(b, &cp); err != nil {
		t.Fatal(err)
	}
	return &cp
}

// setRatio sets the values of protocol's repetitions, in every scenario,
// to ratio times the baseline's in the same round, within 2%: the real
// run's cells and rounds with a ratio known in advance, so that what the
// gate does is asserted rather than how noisy the machine was.
func setRatio(res *results.Results, protocol string, ratio float64) {
	jitter := []float64{1, 1.02, 0.98}
	for i := range res.Cells {
		c := &res.Cells[i]
		base := res.Cell(c.Scenario, res.Settings.BaselineProtocol())
		if c.Protocol != protocol || base == nil {
			continue
		}
		byRound := map[int]float64{}
		for _, r := range base.Repetitions {
			byRound[r.Round] = r.Value
		}
		for j := range c.Repetitions {
			if v, ok := byRound[c.Repetitions[j].Round]; ok {
				c.Repetitions[j].Value = v * ratio * jitter[j%len(jitter)]
			}
		}
		analysis.SummariseCell(c)
	}
}

// scaleValues multiplies the values of the given transports' repetitions
// by f: a machine (or a build) that made them slower alike (f < 1).
func scaleValues(res *results.Results, f float64, protocols ...string) {
	for i := range res.Cells {
		c := &res.Cells[i]
		if !slices.Contains(protocols, c.Protocol) {
			continue
		}
		for j := range c.Repetitions {
			c.Repetitions[j].Value *= f
		}
		analysis.SummariseCell(c)
	}
}

// writeResults writes res to dir/name and returns the path.
func writeResults(t *testing.T, res *results.Results, dir, name string) string {
	t.Helper()
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCompareFailOn: on a real run's results, a run against itself
// passes every gate; h2c's ratio from 0.5x to 0.05x fails --fail-on slower and
// changed, names the cell first, and passes faster; h1 and h2c slower
// alike (the baseline moved, ratios kept) fails no gate and says the
// baseline moved in one line; a wrong word exits 2 naming the flag.
func TestCompareFailOn(t *testing.T) {
	if testing.Short() {
		t.Skip("a real run")
	}
	dir := t.TempDir()
	_, res := realRunFile(t, dir)
	if c := res.Cell("small-sequential", "h2c"); c == nil || len(c.Repetitions) < vocab.CompareMinRounds {
		t.Fatalf("h2c cell %+v: want %d rounds or more", c, vocab.CompareMinRounds)
	}
	base := copyResults(t, res)
	setRatio(base, "h2c", 0.5)
	old := writeResults(t, base, dir, "base.json")
	if code, stdout, stderr := runMain(t, "compare", "--fail-on", "changed", old, old); code != 0 || !strings.HasPrefix(stdout, "gate --fail-on changed: passed") {
		t.Errorf("a run against itself: exit %d\n%s\n%s", code, stdout, stderr)
	}
	slower := copyResults(t, base)
	setRatio(slower, "h2c", 0.05)
	slow := writeResults(t, slower, dir, "slow.json")
	checkGateWords(t, old, slow)
	moved := copyResults(t, base)
	scaleValues(moved, 0.5, "h1", "h2c")
	both := writeResults(t, moved, dir, "both.json")
	code, stdout, stderr := runMain(t, "compare", "--fail-on", "changed", old, both)
	if code != 0 || strings.Count(stdout, "h1 itself moved") != 1 {
		t.Errorf("the baseline moved alone: exit %d, want 0 and one line saying so:\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, _ = runMain(t, "compare", "--fail-on", "slower", "--json", old, slow)
	var cmp results.Comparison
	if err := json.Unmarshal([]byte(stdout), &cmp); err != nil || code != 1 || cmp.Gate == nil || !cmp.Gate.Failed || len(cmp.Gate.Failing) != 1 {
		t.Errorf("--json: exit %d, %v, gate %+v", code, err, cmp.Gate)
	}
	checkGateRefuses(t, base, dir, old)
}

// checkGateWords: h2c's ratio ten times lower (slow against old) fails
// --fail-on slower and changed, its cell named on the first line and the
// gate's line on stderr, and passes faster.
func checkGateWords(t *testing.T, old, slow string) {
	t.Helper()
	for _, c := range []struct {
		word string
		code int
	}{{"slower", 1}, {"changed", 1}, {"faster", 0}} {
		code, stdout, stderr := runMain(t, "compare", "--fail-on", c.word, old, slow)
		first, _, _ := strings.Cut(stdout, "\n")
		if code != c.code || (c.code == 1) != strings.Contains(first, "FAILED: 1 of 1 cells tested") || (c.code == 1 && !strings.Contains(first, "small-sequential h2c")) {
			t.Errorf("h2c ten times slower, --fail-on %s: exit %d, want %d; first line %q; stderr %q", c.word, code, c.code, first, stderr)
		}
		if c.code == 1 && !strings.Contains(stderr, "gate --fail-on "+c.word+": FAILED") {
			t.Errorf("--fail-on %s: stderr %q, want the gate's line", c.word, stderr)
		}
	}
}

// checkGateRefuses: runs of one round (nothing the test can use) and
// wrong words exit 2, with one line naming the flag.
func checkGateRefuses(t *testing.T, base *results.Results, dir, old string) {
	t.Helper()
	one := copyResults(t, base)
	for i := range one.Cells {
		one.Cells[i].Repetitions = one.Cells[i].Repetitions[:1]
	}
	quick := writeResults(t, one, dir, "quick.json")
	if code, _, stderr := runMain(t, "compare", "--fail-on", "slower", quick, quick); code != exitUsage || !strings.Contains(stderr, "--fail-on slower: no cell's ratio could be tested") || !strings.Contains(stderr, "the test needs 2") {
		t.Errorf("runs of one round: exit %d, stderr %q: want 2, the gate cannot tell", code, stderr)
	}
	for _, args := range [][]string{{"--fail-on", "slow"}, {"--format", "html"}} {
		code, _, stderr := runMain(t, append([]string{"compare"}, append(args, old, old)...)...)
		if code != exitUsage || !strings.Contains(stderr, args[0]+" \""+args[1]+"\": want") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("compare %v: exit %d, stderr %q: want 2 and one line naming the flag", args, code, stderr)
		}
	}
}
