//go:build measured

package experiment_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// TestRunNetSweep runs small-sequential over two links (experiment.Sweep,
// as `httpvs run --net rtt=10ms --net rtt=30ms` does): each link is a run
// of its own results, heard as soon as it is measured, and every request
// pays its link's round trip; the verdict across the links is one table
// (report.When, what run prints last), also written as when.md and
// when.html beside the runs' directories (report.WriteRun and WriteWhen,
// what run writes).
func TestRunNetSweep(t *testing.T) {
	needLink(t)
	before := netLeftovers(t)
	so := sweepOptions(t, "small-sequential", "h1,h2c", "rtt=10ms", "rtt=30ms")
	so.Matrix.Duration = 300 * time.Millisecond
	out := t.TempDir()
	var heard []*results.Results
	so.OnLinkDone = func(_ int, res *results.Results) error {
		heard = append(heard, res)
		_, err := report.WriteRun(out, res)
		return err
	}
	runs, err := experiment.Sweep(context.Background(), so)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || len(heard) != 2 {
		t.Fatalf("%d runs, %d heard: want one per link", len(runs), len(heard))
	}
	for i, rtt := range []float64{0.010, 0.030} {
		if runs[i] != heard[i] {
			t.Errorf("run %d: not the results heard", i+1)
		}
		checkSweepRun(t, i, runs[i], rtt)
	}
	if _, err := report.WriteWhen(out, runs); err != nil {
		t.Fatal(err)
	}
	checkWhenFiles(t, out)
	var stdout bytes.Buffer
	fmt.Fprintln(&stdout)
	if err := report.When(&stdout, runs); err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(stdout.String(), "\nwhen: ")
	if !ok || !strings.Contains(table, "rtt=10ms") || !strings.Contains(table, "rtt=30ms") || !strings.Contains(table, "small-sequential  h2c") {
		t.Errorf("no table across the links:\n%s", stdout.String())
	}
	checkNoLeftovers(t, before)
}

// sweepOptions are `httpvs run --repeat 2 --scenarios list --protocols
// protos` with a --net for each of specs, as experiment.Sweep takes them.
func sweepOptions(t *testing.T, list, protos string, specs ...string) experiment.SweepOptions {
	t.Helper()
	so := experiment.SweepOptions{Base: rounds(2).Base}
	for _, spec := range specs {
		l, err := experiment.ParseLink(spec)
		if err != nil {
			t.Fatal(err)
		}
		so.Links = append(so.Links, l)
	}
	var err error
	if so.Matrix.Scenarios, err = plan.ParseScenarios(list); err != nil {
		t.Fatal(err)
	}
	if so.Matrix.Protocols, err = transport.ParseList(protos); err != nil {
		t.Fatal(err)
	}
	return so
}

// checkSweepRun checks run i of the sweep: the link's own results, two
// rounds of two cells, every request taking at least the link's rtt.
func checkSweepRun(t *testing.T, i int, res *results.Results, rtt float64) {
	t.Helper()
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
