package cli

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
)

// TestRunSlowRequestPastBudget: a request that takes at least 10 ms,
// with --budget 1s: the cost is printed up front (2 cells: request-1's
// A/A column beside it) and said to be past the budget. Three rounds of
// its x50 variant (sized to 120 requests' time, about 1.2 s a round) are
// past the budget by themselves, so it is left out, said on stderr and
// under "not run" with the --budget that would hold it; request-1 gets
// fewer rounds than six, and the run exits 0 with every round counting
// at least the 20 requests a repetition needs.
func TestRunSlowRequestPastBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("a run sized by its budget: not under -short")
	}
	payload := server.New(server.Options{})
	opts := server.Loopback()
	opts.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			time.Sleep(10 * time.Millisecond)
			r.URL.Path = "/small"
		}
		payload.Handler().ServeHTTP(w, r)
	})
	srv, err := server.Start(server.Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	out := t.TempDir()
	code, stdout, stderr := runMain(t, "run", "--target", srv.Transport.URL(transport.H1), "--protocols", "h1", "--request", "GET /slow",
		"--repeat", "6", "--budget", "1s", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"2 cells on loopback", "request-1-x50: left out: a round of every transport takes about", "request-1: one GET /slow takes"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !regexp.MustCompile(`not run:\n  request-1-x50: a round of every transport takes about .* \(--budget [0-9ms.]+\)\n`).MatchString(stdout) {
		t.Errorf("stdout does not list request-1-x50 as not run with the budget that holds it:\n%s", stdout)
	}
	res, _ := readResults(t, out)
	if len(res.NotRun) != 1 || res.NotRun[0].Scenario != "request-1-x50" || res.NotRun[0].Field != "Budget" || res.NotRun[0].Value == "" {
		t.Errorf("not run %+v, want request-1-x50 with the budget that holds it", res.NotRun)
	}
	if len(res.Cells) != 1 {
		t.Fatalf("%d cells, want request-1/h1 alone", len(res.Cells))
	}
	for _, c := range append(res.Cells, res.AA...) {
		if n := len(c.Repetitions); n < 1 || n > 5 || c.Repetitions[0].Requests < 20 || c.Errors.Total != 0 {
			t.Errorf("%s/%s: %d repetitions, errors %v", c.Scenario, c.Protocol, n, c.Errors)
		}
	}
}

// TestRunSLO: run --slo against a target whose /slow takes at least 40 ms:
// a capacity per transport it speaks, printed with its bracket and the
// server's CPU, exit 0; as JSON too; and the objective or options it
// cannot take refused in one line (the matrix's rounds, profiles), as is
// --profile where one round per cell gives no verdict to profile by.
func TestRunSLO(t *testing.T) {
	t.Parallel() // see TestMain
	if testing.Short() {
		t.Skip("a capacity search: not under -short")
	}
	payload := server.New(server.Options{})
	opts := server.Loopback()
	opts.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			time.Sleep(40 * time.Millisecond)
			r.URL.Path = "/small"
		}
		payload.Handler().ServeHTTP(w, r)
	})
	srv, err := server.Start(server.Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	target := srv.Transport.URL(transport.H1)
	dir := t.TempDir()
	code, stdout, stderr := runMain(t, "run", "--slo", "p99<2s", "--target", target, "--request", "GET /slow", "--duration", "300ms", "--budget", "15s", "--out", dir)
	if code != 0 || !strings.Contains(stdout, "capacity at p99<2s, GET /slow") || !strings.Contains(stdout, "  h2c ") || !strings.Contains(stdout, "vs h1") {
		t.Fatalf("exit %d: %s\n%s", code, stderr, stdout)
	}
	checkCapacityFiles(t, dir, stdout)
	code, stdout, stderr = runMain(t, "run", "--no-files", "--slo", "p50<1ms", "--target", target, "--request", "GET /slow", "--duration", "300ms", "--protocols", "h1", "--json")
	var out struct {
		Capacity results.Capacity `json:"capacity"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &out) != nil || len(out.Capacity.Transports) != 1 || out.Capacity.Transports[0].Met != 0 ||
		!strings.Contains(out.Capacity.Transports[0].MissedBecause, "p50") {
		t.Errorf("exit %d: %s\n%s", code, stderr, stdout)
	}
	for _, args := range [][]string{
		{"--slo", "p98<1ms"},
		{"--slo", "p99<1ms", "--request", "GET /a", "--request", "GET /b"},
		{"--slo", "p99<1ms", "--scenarios", "download"},
		{"--slo", "p99<1ms", "--format", "markdown"},
		{"--slo", "p99<1ms", "--quick"},
		{"--slo", "p99<1ms", "--profile", filepath.Join(dir, "profiles")},
		{"--slo", "p99<1ms", "--repeat", "5"},
		{"--quick", "--profile", filepath.Join(dir, "profiles")},
		{"--repeat", "1", "--profile", filepath.Join(dir, "profiles")},
		{"--in-flight", "8"},
		{"--slo", "p99<1ms", "--in-flight", "0"},
	} {
		code, _, stderr := runMain(t, append([]string{"run", "--no-files"}, args...)...)
		if code != exitUsage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "profiles")); !os.IsNotExist(err) {
		t.Errorf("a refused --profile made its directory (%v)", err)
	}
}

// checkCapacityFiles checks the one results directory a --slo run wrote
// under out: capacity.json holding the search for every transport, and
// report.md holding what it printed. The target is cleartext: h1 and h2c.
func checkCapacityFiles(t *testing.T, out, printed string) {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(out, "*", "capacity.json"))
	if err != nil || len(dirs) != 1 {
		t.Fatalf("want one capacity.json under %s, got %v (%v)", out, dirs, err)
	}
	b, err := os.ReadFile(dirs[0])
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Capacity results.Capacity `json:"capacity"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	if c := file.Capacity; c.Objective.Text != "p99<2s" || len(c.Transports) != 2 || c.Baseline != "h1" {
		t.Errorf("capacity.json: objective %q, %d transports, baseline %q", c.Objective.Text, len(c.Transports), c.Baseline)
	}
	md, err := os.ReadFile(filepath.Join(filepath.Dir(dirs[0]), "report.md"))
	if err != nil || !strings.Contains(string(md), printed) {
		t.Errorf("report.md (%v) does not hold what was printed:\n%s", err, md)
	}
}
