package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/matrix"
	"github.com/httpvs/httpvs/internal/testenv"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// mainEnv, set to 1, makes this test binary httpvs: tests that start it
// as a command set it.
const mainEnv = "HTTPVS_TEST_MAIN"

// TestMain serves as a run's child server when started as one (httpvs run
// starts its own executable), and runs Main when mainEnv asks.
//
// Tests marked t.Parallel() are the end-to-end runs that check what a run
// writes (cells, settings, words, counts), not how fast it went, runs
// across a link among them when in a process of their own (whose link
// and children are not this one's): the go tool starts them only after
// every serial test has returned, so they never overlap the serial ones
// (the runs across a link in this process, checked for what they leave in
// it; those that profile, a process-wide CPU profile; those that change
// the environment, the working directory, signals or the package's
// hooks; and those that hold a run to a time). The parallel ones mostly
// wait on children, links and a browser: more of them run at once than go
// test's default.
func TestMain(m *testing.M) {
	if experiment.ServeChild() { // a run's child server, as cmd/httpvs
		return
	}
	if os.Getenv(mainEnv) == "1" {
		ctx, stop := SignalContext() // as cmd/httpvs does
		code := Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	testenv.RaiseParallel(testenv.Waiting)
	testenv.QuickChildExits()
	code := m.Run()
	removeProfiledRun()
	os.Exit(code)
}

// TestRunQuickEndToEnd runs --quick on one scenario of each kind the
// cells and the table treat apart (a transfer with its tuned rows, a
// request rate, gRPC with its native column and no h3 binding), over a
// cleartext, a TLS and a QUIC transport, against the child server.
// TestQuickIsTheDefaultMatrix checks that --quick alone asks for every
// scenario over every transport; the library's tests measure each of
// them (internal/matrix: TestFixedSizeMovesExactBytes,
// TestLoadScenariosCountRequests, TestGRPCScenarioEveryBinding).
func TestRunQuickEndToEnd(t *testing.T) {
	t.Parallel() // see TestMain
	if testing.Short() {
		t.Skip("a whole --quick run: not under -short")
	}
	out := t.TempDir()
	scenarios, protocols := []string{"download", "headers-body", "grpc-1"}, []string{"h1", "h2", "h3"}
	start := time.Now()
	code, stdout, stderr := runMain(t, "run", "--quick", "--scenarios", strings.Join(scenarios, ","),
		"--protocols", strings.Join(protocols, ","), "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	t.Logf("quick run took %v", time.Since(start))
	res, dir := readResults(t, out)
	checkQuickSettings(t, res.Settings, res.Partial)
	if want := quickCells(scenarios, len(protocols)); len(res.Cells) != want {
		t.Fatalf("%d cells, want %d", len(res.Cells), want)
	}
	checkQuickCells(t, res.Cells)
	checkQuickOutputs(t, dir, stdout)
}

// checkQuickSettings checks a quick run's settings: complete, against a
// child server, measuring Go as shipped beside the tuned set.
func checkQuickSettings(t *testing.T, s results.Settings, partial bool) {
	t.Helper()
	if partial || s.Target != "child" || s.Server == nil {
		t.Errorf("partial %v, target %q, server knobs %v", partial, s.Target, s.Server)
	}
	// The default run measures Go as shipped.
	if s.Knobs.Name != "go-default" || s.Client.ReadSize != 8*units.KiB || s.Client.HTTP2.MaxReadFrameSize != 16*units.KiB {
		t.Errorf("knobs %q: read size %v, frame %v", s.Knobs.Name, s.Client.ReadSize, s.Client.HTTP2.MaxReadFrameSize)
	}
	if a := s.Alongside; a == nil || a.Name != "tuned" {
		t.Errorf("settings.alongside %+v, want the tuned set", a)
	}
}

// checkQuickCells checks every cell of a quick run: gRPC over h3 skipped
// (there is no binding), every other cell measured once, h1 the baseline.
func checkQuickCells(t *testing.T, cells []results.Cell) {
	t.Helper()
	for _, c := range cells {
		if strings.HasPrefix(c.Scenario, "grpc") && c.Protocol == "h3" {
			if c.Skipped == "" {
				t.Errorf("%s/h3 measured: there is no gRPC binding over HTTP/3", c.Scenario)
			}
			continue
		}
		if c.Skipped != "" || len(c.Repetitions) != 1 {
			t.Errorf("%s/%s: skipped %q, %d repetitions", c.Scenario, c.Protocol, c.Skipped, len(c.Repetitions))
			continue
		}
		checkQuickCell(t, c)
		if c.Protocol == "h1" && c.RatioToBaseline != 1 {
			t.Errorf("%s/h1: ratio %v, want 1", c.Scenario, c.RatioToBaseline)
		}
	}
}

// checkQuickOutputs checks what a quick run leaves: the reports in its
// results directory and the table it prints.
func checkQuickOutputs(t *testing.T, dir, stdout string) {
	t.Helper()
	for _, name := range []string{"report.md", "report.html", "bench.txt"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(b) == 0 {
			t.Errorf("%s: %v, %d bytes", name, err, len(b))
		}
	}
	for _, want := range []string{"headers-body", "(1 round)", "download:tuned ", ":tuned rows over the same transport as shipped, paired by round: can't tell"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
}

// quickCells is how many cells a quick run of scenarios over n
// transports has: each scenario over each transport, the grpc-native
// column of the gRPC scenarios, and the :tuned variant of download and
// upload (as shipped -> tuned).
func quickCells(scenarios []string, n int) int {
	cells := 0
	for _, sc := range scenarios {
		cells += n
		if strings.HasPrefix(sc, "grpc") {
			cells++
		}
		if sc == "download" || sc == "upload" {
			cells += n
		}
	}
	return cells
}

// checkQuickCell checks one measured cell of a quick run: negotiated as
// asked, no errors, a value, goroutine peaks at both ends, and the child
// server's byte counts equal to the client's.
func checkQuickCell(t *testing.T, c results.Cell) {
	t.Helper()
	if c.Protocol == matrix.NativeColumn {
		c.Protocol = "h2c" // grpc-go's own HTTP/2, cleartext
	}
	r := c.Repetitions[0]
	if c.Negotiated != c.Protocol || r.Errors.Total != 0 || r.Value <= 0 {
		t.Errorf("%s/%s: negotiated %q, errors %v (%s), value %v", c.Scenario, c.Protocol, c.Negotiated, r.Errors, r.FirstError, r.Value)
	}
	if r.ClientGoroutinesPeak <= 0 {
		t.Errorf("%s/%s: client goroutines at peak %d", c.Scenario, c.Protocol, r.ClientGoroutinesPeak)
	}
	if r.Server == nil {
		t.Errorf("%s/%s: no server counters: %s", c.Scenario, c.Protocol, r.ServerNote)
		return
	}
	sc, _ := matrix.ScenarioByName(c.Scenario)
	// The peak is sampled every 10 ms: that it was measured is all a test
	// can ask. Even a transfer's goroutines need not all be alive at one
	// sample (under load the first of 100 1-MiB streams can end before the
	// last starts: 94 of 100 seen).
	if r.Server.Process.GoroutinesPeak <= 0 {
		t.Errorf("%s/%s: server goroutines at peak %d", c.Scenario, c.Protocol, r.Server.Process.GoroutinesPeak)
	}
	// The child server counted exactly the body bytes the client did.
	pc := r.Server.Protocols[c.Protocol]
	moved := pc.BodyBytesSent + pc.BodyBytesReceived
	if sc.Metric == results.MetricBytesPerSecond && (moved != r.Bytes || r.Bytes != int64(r.Streams)*r.SizeBytes) {
		t.Errorf("%s/%s: client %d bytes, server %d, want %d x %d", c.Scenario, c.Protocol, r.Bytes, moved, r.Streams, r.SizeBytes)
	}
}

func TestRunBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"scenario", []string{"run", "--scenarios", "download,frob"}, `unknown scenario "frob": want all or a comma-separated list of download, download-parallel-10`},
		{"protocol", []string{"run", "--protocols", "h1,h4"}, "want one of h1, h2c, h1-tls, h2, h3"},
		{"format", []string{"run", "--format", "xml"}, "want text, markdown, json or benchstat"},
		{"repeat", []string{"run", "--repeat", "0"}, "--repeat 0: want at least 1"},
		{"max-repeat", []string{"run", "--repeat", "5", "--max-repeat", "4"}, "--max-repeat 4: want Repeat to 100"},
		{"budget", []string{"run", "--budget", "-1s"}, "--budget -1s: want 0 (no bound) or more"},
		{"precision", []string{"run", "--no-files", "--precision", "80%"}, "--precision 0.8: want a half-width from 1% to 50%"},
		{"loss-events", []string{"run", "--no-files", "--loss-events", "200000"}, "--loss-events 200000: want at most 100000"},
		{"slo-rounds", []string{"run", "--no-files", "--slo", "p99<50ms", "--pin", "--quick"}, "unpinned and unprofiled: it does not go with --quick, --pin"},
		{"aa", []string{"run", "--no-files", "--scenarios", "download", "--aa", "download,frob"}, "--aa download,frob: want scenarios among those measured (frob is not)"},
		{"peers", []string{"run", "--peers", "h2o,apache"}, `--peers "apache": want one of h2o, nginx`},
		{"peers-net", []string{"run", "--peers", "auto", "--net", "4g"}, "--peers runs the reference peers on loopback; it does not go with --net"},
		{"engine", []string{"run", "--engine", "turbo"}, "want std or fast"},
		{"target-url", []string{"run", "--target", "https://127.0.0.1:1"}, "want a base URL http://host:port"},
		{"k-without-tls", []string{"run", "--target", "http://127.0.0.1:1", "-k"}, "apply to --tls-target"},
		{"server-knob-with-target", []string{"run", "--target", "http://127.0.0.1:1", "--server-write-size", "64k"}, "tune the child server"},
		{"net-spec", []string{"run", "--net", "rtt=40ms,loss=101%"}, `--net loss="101%": want a percentage below 100%`},
		{"net-preset", []string{"run", "--net", "6ghz"}, `--net preset="6ghz": want one of 3g, 4g`},
		{"net-preset-typo", []string{"run", "--net", "4gg"}, `--net 4gg: no such preset: did you mean 4g? (want one of 3g, 4g`},
		{"net-backend", []string{"run", "--net", "rtt=40ms,backend=ns3"}, `--net backend="ns3": want auto, tun or netem`},
		{"net-with-target", []string{"run", "--net", "4g", "--target", "http://127.0.0.1:1"}, "--net emulates a link to the child server"},
		{"compare-args", []string{"compare", "a.json"}, "takes two results.json files"},
		{"tune-h1", []string{"tune", "--protocols", "h1"}, "h1 is the baseline"},
		{"tune-budget", []string{"tune", "--budget", "10ms"}, "want 1s to 24h"},
		{"json-format", []string{"run", "--json", "--format", "markdown"}, "--json and --format markdown disagree"},
		{"knobs", []string{"run", "--knobs", "fastest"}, `--knobs "fastest": want go-default, tuned, or a file written by httpvs tune --write`},
		{"tune-write", []string{"tune", "--write", "/nonexistent/dir/k.json"}, "--write: open /nonexistent/dir/k.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, tt.args...)
			if code != exitUsage || stdout != "" {
				t.Fatalf("exit %d (want %d), stdout %q, stderr %q", code, exitUsage, stdout, stderr)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Fatalf("stderr %q, want one line containing %q", stderr, tt.want)
			}
		})
	}
}

func TestRunUnreachableTargetFailsFast(t *testing.T) {
	ts, _ := testServer(t)
	addr := ts.Addr(transport.H1)
	ts.Close()
	start := time.Now()
	code, _, stderr := runMain(t, "run", "--target", "http://"+addr, "--no-files")
	if code != exitFailure || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "is unreachable") {
		t.Fatalf("exit %d, stderr %q: want exit 1 and one line saying the target is unreachable", code, stderr)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to fail", d)
	}
}

// TestRunExternalTargetSkipsWhatItLacks: with --target alone, "all"
// transports are the cleartext ones it serves (h2 named without
// --tls-target is refused: TestRunTargetRefusals).
func TestRunExternalTargetSkipsWhatItLacks(t *testing.T) {
	ts, _ := testServer(t)
	code, stdout, stderr := runMain(t, "run", "--target", ts.URL(transport.H1), "--no-files", "--quick",
		"--scenarios", "small-sequential", "--protocols", "all", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res results.Results
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if h2 := res.Cell("small-sequential", "h2"); h2 != nil || len(res.Cells) != 2 {
		t.Errorf("h2 cell %+v among %d, want only h1 and h2c without --tls-target", h2, len(res.Cells))
	}
	if h1 := res.Cell("small-sequential", "h1"); h1 == nil || h1.Skipped != "" || h1.Median <= 0 {
		t.Errorf("h1 cell %+v, want measured", h1)
	}
}

func TestCompareRefusesOtherSchema(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	other := filepath.Join(dir, "other.json")
	os.WriteFile(good, []byte(`{"schema_version": 1, "cells": []}`), 0o600)
	os.WriteFile(other, []byte(`{"schema_version": 99, "cells": []}`), 0o600)
	code, _, stderr := runMain(t, "compare", good, other)
	if code != exitUsage || !strings.Contains(stderr, "schema version 99: this httpvs reads version 1 only") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if code, stdout, stderr := runMain(t, "compare", good, good); code != 0 {
		t.Fatalf("compare of empty runs: exit %d %q %q", code, stdout, stderr)
	}
}

// TestProfiles: a profiled run profiles the cells its verdict calls
// slower (h2c's download, over five rounds) and their baseline in rounds
// of their own: the files of both ends, no measured repetition profiled,
// and the cell's extra CPU attributed on both sides, net/http's HTTP/2
// code (or the syscalls it makes) among what grew. Which cells the
// verdict calls slower is measured, not asserted: where this machine did
// not call h2c slower, nothing is profiled or attributed.
func TestProfiles(t *testing.T) {
	dir, out := profiledRun(t)
	res, _ := readResults(t, out)
	c := res.Cell("download", "h2c")
	if c == nil {
		t.Fatal("no download/h2c cell")
	}
	if calledSlower(c) {
		checkProfileFiles(t, dir)
		checkAttribution(t, c)
	} else {
		t.Logf("download/h2c %.2fx h1, not called slower: nothing to profile", c.RatioToBaseline)
		if files, _ := filepath.Glob(filepath.Join(dir, "download_h2c.*")); len(files) != 0 || len(c.Attribution) != 0 {
			t.Errorf("a cell not called slower: profiles %v, attribution %+v; want none", files, c.Attribution)
		}
	}
	for _, m := range c.Repetitions {
		if m.Profiled {
			t.Errorf("repetition %d was profiled", m.Round)
		}
	}
	// get against a server without profiling: client profiles, and one
	// line saying how to get the server's.
	ts, _ := testServer(t)
	gdir := t.TempDir()
	code, _, stderr := runMain(t, "get", ts.URL(transport.H1)+"/10m", "--profile", gdir, "--no-server-stats")
	if code != 0 || !strings.Contains(stderr, "httpvs serve --profiling") {
		t.Fatalf("get: exit %d, stderr %q", code, stderr)
	}
	if fi, err := os.Stat(filepath.Join(gdir, "download.client.cpu.pprof")); err != nil || fi.Size() == 0 {
		t.Errorf("get client profile: %v", err)
	}
}

// checkProfileFiles checks that dir holds both ends' CPU and heap
// profiles of download's h1 and h2c cells.
func checkProfileFiles(t *testing.T, dir string) {
	t.Helper()
	for _, cell := range []string{"download_h1", "download_h2c"} {
		for _, end := range []string{"client", "server"} {
			for _, kind := range []string{"cpu", "heap"} {
				name := filepath.Join(dir, cell+"."+end+"."+kind+".pprof")
				if fi, err := os.Stat(name); err != nil || fi.Size() == 0 {
					t.Errorf("%s: %v", name, err)
				}
			}
		}
	}
}

// calledSlower says whether the verdict calls c slower than its baseline.
func calledSlower(c *results.Cell) bool {
	return c.VsBaseline != nil && c.VsBaseline.Verdict == results.VerdictSlower
}

// checkAttribution checks that c's extra CPU was attributed on both sides,
// within the extra, and names net/http's HTTP/2 code or what it called.
func checkAttribution(t *testing.T, c *results.Cell) {
	t.Helper()
	if len(c.Attribution) != 2 {
		t.Fatalf("attribution %+v: want the client's and the server's", c.Attribution)
	}
	http2 := false
	for _, s := range c.Attribution {
		t.Log(analysis.AttributionSummary(s, c.CPUUnit))
		if s.Error != "" || s.SecondsPerUnit <= 0 || s.BaseSecondsPerUnit <= 0 {
			t.Errorf("%s: %+v", s.Side, s)
		}
		var sum float64
		for _, a := range s.Areas {
			sum += a.ChangeSecondsPerUnit
			http2 = http2 || strings.HasPrefix(a.Name, "HTTP/2")
		}
		for _, f := range s.Functions {
			http2 = http2 || strings.Contains(f.Name, "http2")
		}
		if sum > s.GrowthSecondsPerUnit+1e-9 {
			t.Errorf("%s: areas grew %g s, more than the growth %g", s.Side, sum, s.GrowthSecondsPerUnit)
		}
		if d := s.GrowthSecondsPerUnit - s.ShrinkageSecondsPerUnit - s.ExtraSecondsPerUnit; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: grew %g - shrank %g is not the extra %g", s.Side, s.GrowthSecondsPerUnit, s.ShrinkageSecondsPerUnit, s.ExtraSecondsPerUnit)
		}
	}
	if !http2 {
		t.Errorf("no side names HTTP/2's code (or what it called) among what grew")
	}
}
