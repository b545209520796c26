package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHistory: three results.json of a real run (h2c's figures halved in
// the last) give a table with a row per run and the SVG and HTML files;
// one file, or a cell no run has, exits 2 with one line naming what is
// wrong.
func TestHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("a real run")
	}
	dir := t.TempDir()
	old, res := realRunFile(t, dir)
	halved := copyResults(t, res)
	scaleValues(halved, 0.5, "h2c")
	slow := writeResults(t, halved, dir, "slow.json")
	out := filepath.Join(dir, "hist")
	code, stdout, stderr := runMain(t, "history", "--out", out, "--cells", "small-sequential/h2c", old, old, slow)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], "small-sequential/h2c") {
		t.Errorf("table:\n%s", stdout)
	}
	for _, name := range []string{"history.svg", "history.html"} {
		if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || !strings.Contains(string(b), `class="interval"`) {
			t.Errorf("%s: %v, or no interval drawn", name, err)
		}
	}
	for _, args := range [][]string{{old}, {"--cells", "nosuch/h2c", old, old}, {"--cells", "download", old, old}} {
		code, _, stderr := runMain(t, append([]string{"history", "--out", out}, args...)...)
		if code != exitUsage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("history %v: exit %d, stderr %q: want 2 and one line", args, code, stderr)
		}
	}
}
