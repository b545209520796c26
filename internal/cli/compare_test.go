package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/verdict"
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

// scaled writes res to dir/name with the values of the given transports'
// repetitions multiplied by f: a build that made them slower (f < 1).
func scaled(t *testing.T, res *results.Results, dir, name string, f float64, protocols ...string) string {
	t.Helper()
	b, _ := json.Marshal(res)
	var cp results.Results
	if err := json.Unmarshal(b, &cp); err != nil {
		t.Fatal(err)
	}
	for i := range cp.Cells {
		c := &cp.Cells[i]
		for _, p := range protocols {
			if c.Protocol != p {
				continue
			}
			for j := range c.Repetitions {
				c.Repetitions[j].Value *= f
			}
			verdict.SummariseCell(c)
		}
	}
	b, _ = json.Marshal(&cp)
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCompareFailOn: on a real run's results, a run against itself
// passes every gate; h2c made ten times slower fails --fail-on slower and
// changed, names the cell first, and passes faster; h1 and h2c slower
// alike (the baseline moved, ratios kept) fails no gate and says the
// baseline moved in one line; a wrong word exits 2 naming the flag.
func TestCompareFailOn(t *testing.T) {
	if testing.Short() {
		t.Skip("a real run")
	}
	dir := t.TempDir()
	old, res := realRunFile(t, dir)
	if c := res.Cell("small-sequential", "h2c"); c == nil || len(c.Repetitions) < verdict.CompareMinRounds {
		t.Fatalf("h2c cell %+v: want %d rounds or more", c, verdict.CompareMinRounds)
	}
	if code, stdout, stderr := runMain(t, "compare", "--fail-on", "changed", old, old); code != 0 || !strings.HasPrefix(stdout, "gate --fail-on changed: passed") {
		t.Errorf("a run against itself: exit %d\n%s\n%s", code, stdout, stderr)
	}
	slow := scaled(t, res, dir, "slow.json", 0.1, "h2c")
	checkGateWords(t, old, slow)
	both := scaled(t, res, dir, "both.json", 0.5, "h1", "h2c")
	code, stdout, stderr := runMain(t, "compare", "--fail-on", "changed", old, both)
	if code != 0 || strings.Count(stdout, "h1 itself moved") != 1 {
		t.Errorf("the baseline moved alone: exit %d, want 0 and one line saying so:\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, _ = runMain(t, "compare", "--fail-on", "slower", "--json", old, slow)
	var cmp verdict.Comparison
	if err := json.Unmarshal([]byte(stdout), &cmp); err != nil || code != 1 || cmp.Gate == nil || !cmp.Gate.Failed || len(cmp.Gate.Failing) != 1 {
		t.Errorf("--json: exit %d, %v, gate %+v", code, err, cmp.Gate)
	}
	for _, args := range [][]string{{"--fail-on", "slow"}, {"--format", "html"}} {
		code, _, stderr := runMain(t, append([]string{"compare"}, append(args, old, old)...)...)
		if code != exitUsage || !strings.Contains(stderr, args[0]+" \""+args[1]+"\": want") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("compare %v: exit %d, stderr %q: want 2 and one line naming the flag", args, code, stderr)
		}
	}
}

// checkGateWords: h2c ten times slower (slow against old) fails
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
