package report

import (
	"bytes"
	"encoding/xml"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/knobs"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
	"golang.org/x/perf/benchfmt"
)

// sampleRun is a fixed two-scenario run: a download where h2c is noisy and
// h3 was skipped, and a small-request scenario where the client was the
// bottleneck and h2c had a failure.
func sampleRun() *results.Results {
	f64 := func(v float64) *float64 { return &v }
	rep := func(v, secs float64, reqs int64, cores float64) results.Repetition {
		bound := results.BottleneckNone
		if cores > 1.5 {
			bound = results.BottleneckClient
		}
		return results.Repetition{Bottleneck: bound,
			Value: v, Seconds: secs, Requests: reqs, Bytes: int64(v * secs), Streams: 1, Connections: 1,
			Negotiated: "x", Latency: stats.LatencySummary{Count: reqs, P50: 0.000412, P99: 0.00125},
			ClientCPUSeconds: cores * secs, ServerCPUSeconds: f64(0.5 * secs), ClientCPUPerUnit: 0.21, ServerCPUPerUnit: f64(0.3),
			ClientCores: cores, ServerCores: f64(0.5), AllocsPerRequest: 45, AllocBytesPerRequest: 5120,
			ClientGCCycles: 3, ClientGoroutinesPeak: 12,
			Server: &stats.ServerStats{Seconds: secs, Process: stats.ProcessStats{GCCycles: 5, GoroutinesPeak: 21}},
		}
	}
	var failed stats.ErrorCounts
	failed.Count(stats.ErrReset)
	res := &results.Results{
		SchemaVersion: results.SchemaVersion,
		Started:       time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC),
		Finished:      time.Date(2026, 11, 21, 10, 0, 50, 0, time.UTC),
		Env: results.Env{GoVersion: "go1.26.8", OS: "linux", Arch: "amd64", CPUModel: "Test CPU", Cores: 2, GOMAXPROCS: 2,
			Kernel: "6.1.0", Version: "v0.1.0", Commit: "0123456789ab"},
		Settings: results.Settings{Protocols: []string{"h1", "h2c", "h3"}, Scenarios: []string{"download", "small-sequential"},
			Repeat: 3, DurationSeconds: 0.4, WarmupSeconds: 0.1, Engine: "std", Target: "child", Knobs: knobs.GoDefault},
		Cells: []results.Cell{
			{Scenario: "download", Protocol: "h1", Negotiated: "h1", Metric: results.MetricBytesPerSecond, CPUUnit: "GB",
				Repetitions: []results.Repetition{rep(4.5e9, 0.4, 1, 0.8), rep(4.6e9, 0.4, 1, 0.8), rep(4.4e9, 0.4, 1, 0.8)}},
			{Scenario: "download", Protocol: "h2c", Negotiated: "h2c", Metric: results.MetricBytesPerSecond, CPUUnit: "GB",
				Repetitions: []results.Repetition{rep(2.5e9, 0.4, 1, 0.9), rep(1.9e9, 0.4, 1, 0.9), rep(2.2e9, 0.4, 1, 0.9)}},
			{Scenario: "download", Protocol: "h3", Metric: results.MetricBytesPerSecond, CPUUnit: "GB",
				Skipped: "download over h3 failed: timeout: no recent network activity"},
			{Scenario: "small-sequential", Protocol: "h1", Negotiated: "h1", Metric: results.MetricRequestsPerSecond, CPUUnit: "1000 requests",
				Repetitions: []results.Repetition{rep(14000, 0.4, 5600, 1.9), rep(14200, 0.4, 5680, 1.9), rep(13900, 0.4, 5560, 1.9)}},
			{Scenario: "small-sequential", Protocol: "h2c", Negotiated: "h2c", Metric: results.MetricRequestsPerSecond, CPUUnit: "1000 requests",
				Repetitions: []results.Repetition{rep(9000, 0.4, 3600, 0.6), rep(9100, 0.4, 3640, 0.6), rep(8900, 0.4, 3560, 0.6)}},
		},
	}
	res.Cells[4].Repetitions[1].Errors = failed
	res.Cells[4].Repetitions[1].FirstError = "GET /small: connection reset by peer"
	for i := range res.Cells {
		for j := range res.Cells[i].Repetitions {
			res.Cells[i].Repetitions[j].Negotiated = res.Cells[i].Protocol
		}
	}
	analysis.Summarise(res)
	return res
}

func TestMatrixRenderersGolden(t *testing.T) {
	renderers := []struct {
		file   string
		render func(*bytes.Buffer, *results.Results) error
	}{
		{"matrix.txt", func(b *bytes.Buffer, r *results.Results) error { return Matrix(b, r) }},
		{"matrix.md", func(b *bytes.Buffer, r *results.Results) error { return Markdown(b, r) }},
		{"matrix.html", func(b *bytes.Buffer, r *results.Results) error { return HTML(b, r) }},
		{"matrix-bench.txt", func(b *bytes.Buffer, r *results.Results) error { return Benchstat(b, r) }},
	}
	for _, rr := range renderers {
		t.Run(rr.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := rr.render(&b, sampleRun()); err != nil {
				t.Fatal(err)
			}
			golden(t, rr.file, b.Bytes())
		})
	}
}

func TestMatrixTextSaysWhatMatters(t *testing.T) {
	var b bytes.Buffer
	if err := Matrix(&b, sampleRun()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	// No sentence twice: each fix once.
	for _, line := range strings.Split(out, "\n") {
		if line != "" && strings.Count(out, line) > 1 && strings.Contains(line, "fix") {
			t.Errorf("printed twice: %q", line)
		}
	}
	for _, want := range []string{
		"4.50 GB/s", "2.20 GB/s *", "0.49x", // h2c median over h1's
		"h3 skipped: download over h3 failed",
		"h2c: 1 error (1 reset); first: GET /small: connection reset by peer",
		// The baseline's finding is a note under its table, not a fix of
		// any gap.
		"h1: the client used 1.90 cores, the server 0.50: the generator probably limited this cell",
		"0.64x [0.63, 0.66]", "0.49x [0.33, 0.71]", "2-3 rounds",
		"* noisy: repetitions spread (max-min)/median over 10% (h2c 27.3%)",
	} {
		if !strings.Contains(unwrapped(out), want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
}

// TestHTMLIsSelfContained parses the page as XML-ish markup and checks it
// fetches nothing: no script or link, no http(s) reference but the SVG
// namespace.
func TestHTMLIsSelfContained(t *testing.T) {
	var b bytes.Buffer
	if err := HTML(&b, sampleRun()); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"<script", "<link", "src=", "@import", "url("} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	if n := strings.Count(page, "http://") + strings.Count(page, "https://"); n != strings.Count(page, "http://www.w3.org/2000/svg") {
		t.Errorf("page refers to the network")
	}
	// Every chart is well-formed SVG.
	for _, svg := range strings.Split(page, "<svg")[1:] {
		doc := "<svg" + svg[:strings.Index(svg, "</svg>")] + "</svg>"
		if err := xml.Unmarshal([]byte(doc), new(struct{})); err != nil {
			t.Errorf("chart is not well-formed: %v", err)
		}
	}
}

// TestBenchstatParses reads Benchstat's output with x/perf's benchfmt, the
// reader benchstat uses.
func TestBenchstatParses(t *testing.T) {
	var b bytes.Buffer
	if err := Benchstat(&b, sampleRun()); err != nil {
		t.Fatal(err)
	}
	rd := benchfmt.NewReader(&b, "bench.txt")
	results := 0
	for rd.Scan() {
		switch r := rd.Result().(type) {
		case *benchfmt.Result:
			results++
			if len(r.Values) < 2 {
				t.Errorf("%s: %d values", r.Name, len(r.Values))
			}
		case *benchfmt.SyntaxError:
			t.Errorf("syntax error: %v", r)
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	if results != 12 {
		t.Errorf("%d benchmark lines, want 12 (4 cells x 3 repetitions)", results)
	}
}

func TestDeltas(t *testing.T) {
	old, new := sampleRun(), sampleRun()
	for i := range new.Cells[1].Repetitions {
		new.Cells[1].Repetitions[i].Value *= 1.5
	}
	analysis.Summarise(new)
	var b bytes.Buffer
	// No margin: the golden text must not move with the built-in estimate.
	if err := Deltas(&b, analysis.CompareRunsMargin("old", "new", old, new, nil)); err != nil {
		t.Fatal(err)
	}
	golden(t, "deltas.txt", b.Bytes())
}

// TestPartialSaysSoFirst: an interrupted run's report says PARTIAL on its
// first line, above a verdict that would otherwise read as complete.
func TestPartialSaysSoFirst(t *testing.T) {
	res := sampleRun()
	res.Partial, res.PartialReason = true, "interrupted: context canceled"
	var b bytes.Buffer
	if err := Matrix(&b, res); err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(b.String(), "\n")
	if !strings.HasPrefix(first, "PARTIAL: interrupted: context canceled") {
		t.Errorf("first line %q", first)
	}
}

// TestDeltasCallsOutTheBaseline: when h1 itself got faster, compare says
// so under the table, with its figures, and h2c's own gain is in the
// value column although its ratio did not move.
func TestDeltasCallsOutTheBaseline(t *testing.T) {
	old, new := sampleRun(), sampleRun()
	for _, c := range []int{0, 1} { // download h1 and h2c, 40% faster alike
		for i := range new.Cells[c].Repetitions {
			new.Cells[c].Repetitions[i].Value *= 1.4
		}
	}
	analysis.Summarise(new)
	var b bytes.Buffer
	// No margin: the golden text must not move with the built-in estimate.
	if err := Deltas(&b, analysis.CompareRunsMargin("old", "new", old, new, nil)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "h1 itself moved: download +40% (4.50 GB/s -> 6.30 GB/s, p ") || !strings.Contains(out, "ratios to it hide that") {
		t.Errorf("no call-out of h1's own move:\n%s", out)
	}
	if !regexp.MustCompile(`download +h2c +2\.20 GB/s +3\.08 GB/s +~ \+40\.0% +0\.49x -> 0\.49x +~ \+0\.0%`).MatchString(out) {
		t.Errorf("h2c's row lacks its own +40%% beside a flat ratio:\n%s", out)
	}
	if _, line, _ := strings.Cut(out, "itself moved"); strings.Contains(strings.SplitN(line, "\n", 2)[0], "small-sequential") {
		t.Errorf("small-sequential's h1 did not move, yet is called out:\n%s", out)
	}
}
