package cli

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
)

// TestExplain reads a profiled run's attribution back, and attributes an
// earlier run's from its profile files: the same run's results with the
// attribution removed and, as runs before profiling rounds did, each
// cell's first repetition marked profiled.
func TestExplain(t *testing.T) {
	// The cells attributed are those the verdict calls slower (h2c's, in
	// five rounds, on all but a machine too busy to tell).
	dir, out := profiledRun(t)
	res, rdir := readResults(t, out)
	attributed := analysis.AttributedCells(res)
	if len(attributed) == 0 {
		// This machine called no cell slower: nothing was attributed, and
		// explain says so (TestProfiles checks nothing was profiled).
		code, _, stderr := runMain(t, "explain", filepath.Join(rdir, "results.json"))
		if code != exitFailure || !strings.Contains(stderr, "holds no attributed cell the verdict calls slower") {
			t.Errorf("explain of a run with no cell called slower: exit %d, %q", code, stderr)
		}
		return
	}
	first := attributed[0].Scenario + "/" + attributed[0].Protocol + " ("
	code, stdout, stderr := runMain(t, "explain", filepath.Join(rdir, "results.json"))
	// The client's side either grew or says it did not (a busy machine
	// can leave h2c's client no dearer than h1's in a short profile).
	if code != 0 || !strings.Contains(stdout, first) || !strings.Contains(stdout, "client +") && !strings.Contains(stdout, "client 0") {
		t.Fatalf("explain: exit %d: %s%s", code, stdout, stderr)
	}
	checkAddsUp(t, stdout)

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
	if err := writeJSON(f, res); err != nil {
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

// sideLine is a side's attribution as explain prints it: the net extra
// (or the cell's and the baseline's figures where it spent no more), then
// what grew and what shrank.
var sideLine = regexp.MustCompile(`(client|server) (?:\+([0-9.]+) s/GB|([0-9.]+) s/GB, no more than the baseline's ([0-9.]+))[^=\n]* = ([0-9.]+) grew - ([0-9.]+) shrank`)

// checkAddsUp checks that each side printed in out states what grew and
// what shrank, and that their difference is the net extra it printed,
// within the last digits printed (the figures are rounded alike).
func checkAddsUp(t *testing.T, out string) {
	t.Helper()
	n := 0
	for _, m := range sideLine.FindAllStringSubmatch(out, -1) {
		n++
		num := func(s string) (float64, float64) {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("%q: %v", m[0], err)
			}
			ulp := 0.0
			if dot := strings.IndexByte(s, '.'); dot >= 0 {
				ulp = math.Pow(10, -float64(len(s)-dot-1))
			}
			return v, ulp
		}
		grew, u1 := num(m[5])
		shrank, u2 := num(m[6])
		var extra, u3 float64
		if m[2] != "" {
			extra, u3 = num(m[2])
		} else {
			cell, ua := num(m[3])
			base, ub := num(m[4])
			extra, u3 = cell-base, ua+ub
		}
		if d := grew - shrank - extra; math.Abs(d) > u1+u2+u3+1e-12 {
			t.Errorf("%q: %g grew - %g shrank is not the extra %g", m[0], grew, shrank, extra)
		}
	}
	if n == 0 {
		t.Errorf("no side says what grew and what shrank:\n%s", out)
	}
}
