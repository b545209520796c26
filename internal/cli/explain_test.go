package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/report"
)

// TestExplain reads a profiled run's attribution back, and attributes an
// earlier run's from its profile files: the same run's results with the
// attribution removed and, as runs before profiling rounds did, each
// cell's first repetition marked profiled.
func TestExplain(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	code, _, stderr := runMain(t, "run", "--quick", "--out", out, "--scenarios", "download", "--protocols", "h1,h2c", "--profile", dir)
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	res, rdir := readResults(t, out)
	code, stdout, stderr := runMain(t, "explain", filepath.Join(rdir, "results.json"))
	if code != 0 || !strings.Contains(stdout, "download/h2c (") || !strings.Contains(stdout, "client +") {
		t.Fatalf("explain: exit %d: %s%s", code, stdout, stderr)
	}

	// An earlier run: no attribution in its results.
	for i := range res.Cells {
		res.Cells[i].Attribution = nil
		res.Cells[i].Repetitions[0].Profiled = true
	}
	old := filepath.Join(t.TempDir(), "results.json")
	f, err := os.Create(old)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.JSON(f, res); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, _, stderr = runMain(t, "explain", old)
	if code != exitFailure || !strings.Contains(stderr, "--profiles DIR") {
		t.Errorf("explain without attribution: exit %d, %q", code, stderr)
	}
	code, stdout, stderr = runMain(t, "explain", old, "--profiles", dir, "--json")
	if code != 0 || !strings.Contains(stdout, `"protocol": "h2c"`) || !strings.Contains(stdout, `"side": "server"`) {
		t.Errorf("explain --profiles: exit %d: %s%s", code, stdout, stderr)
	}

	// Bad input: one line, exit 2.
	for _, args := range [][]string{{"explain"}, {"explain", filepath.Join(dir, "none.json")}, {"explain", old, "--profiles", filepath.Join(dir, "none")}} {
		if code, _, stderr := runMain(t, args...); code != exitUsage || strings.Count(strings.TrimSpace(stderr), "\n") > 1 {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}
