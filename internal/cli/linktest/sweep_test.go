//go:build measured

package linktest

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestRunNetSweep runs small-sequential over two links: each run is its
// own results (one JSON document each) and every request pays its link's
// round trip; the text output ends with one table across the links, which
// is also written as when.md and when.html beside the runs' directories.
func TestRunNetSweep(t *testing.T) {
	needLink(t)
	before := netLeftovers(t)
	args := []string{"run", "--net", "rtt=10ms", "--net", "rtt=30ms", "--scenarios", "small-sequential", "--protocols", "h1,h2c",
		"--repeat", "2", "--duration", "300ms"}
	code, stdout, stderr := runMain(t, append(args, "--json", "--no-files")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	for i, rtt := range []float64{0.010, 0.030} {
		var res results.Results
		if err := dec.Decode(&res); err != nil {
			t.Fatalf("run %d: %v", i+1, err)
		}
		if res.Settings.Net == nil || res.Settings.Repeat != 2 || len(res.Cells) != 2 {
			t.Fatalf("run %d: net %+v, %d rounds, %d cells", i+1, res.Settings.Net, res.Settings.Repeat, len(res.Cells))
		}
		for _, c := range res.Cells {
			for _, r := range c.Repetitions {
				if r.Errors.Total != 0 || r.Latency.Count == 0 || r.Latency.Min < rtt*0.99 {
					t.Errorf("%s %s: %d errors, %d requests, fastest %.4fs: want each to take %v s", res.Settings.Net.Spec, c.Protocol, r.Errors.Total, r.Latency.Count, r.Latency.Min, rtt)
				}
			}
		}
	}
	if err := dec.Decode(new(results.Results)); err != io.EOF {
		t.Fatalf("after two runs: %v, want the end", err)
	}
	out := t.TempDir()
	code, stdout, stderr = runMain(t, append(args, "--out", out)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkWhenFiles(t, out)
	_, table, ok := strings.Cut(stdout, "\nwhen: ")
	if !ok || !strings.Contains(table, "rtt=10ms") || !strings.Contains(table, "rtt=30ms") || !strings.Contains(table, "small-sequential  h2c") {
		t.Errorf("no table across the links at the end:\n%s", stdout)
	}
	checkNoLeftovers(t, before)
}

// checkWhenFiles checks that a sweep over rtt=10ms and rtt=30ms wrote its
// two runs and one -when directory under out, whose when.md and when.html
// name both links and the scenario.
func checkWhenFiles(t *testing.T, out string) {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(out, "*"))
	when, _ := filepath.Glob(filepath.Join(out, "*-when"))
	if err != nil || len(dirs) != 3 || len(when) != 1 {
		t.Fatalf("results directories %q (%v), want two runs and one -when", dirs, err)
	}
	for _, name := range []string{"when.md", "when.html"} {
		b, err := os.ReadFile(filepath.Join(when[0], name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "rtt=10ms") || !strings.Contains(string(b), "rtt=30ms") || !strings.Contains(string(b), "small-sequential") {
			t.Errorf("%s lacks the links or the scenario:\n%s", name, b)
		}
	}
}
