package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// goResults is a run across two toolchains and a third that failed, with
// h2c at a quarter, then half, of h1.
func goResults() *results.Results {
	res := &results.Results{Settings: results.Settings{Repeat: 4, MaxRepeat: 4, DurationSeconds: 0.25, Baseline: "h1"}}
	gv := &results.GoVersions{NotMeasured: []string{"upload: not measured across versions"}}
	gv.Toolchains = []results.GoToolchain{
		{Asked: "1.24.13", Toolchain: "go1.24.13", BinaryGo: "go1.24.13", H2C: "net/http", Cached: true},
		{Asked: "go1.99.0", Error: "fetch: toolchain not available"},
		{Asked: "installed", Toolchain: "go1.27.4", BinaryGo: "go1.27.4", H2C: "net/http", BuildSeconds: 41},
	}
	ratio := func(r float64, v string) *results.Interval {
		return &results.Interval{Ratio: r, Low: r * 0.9, High: r * 1.1, Pairs: 4, Verdict: v}
	}
	for i, tc := range []string{"go1.24.13", "go1.27.4"} {
		h1 := results.Cell{Scenario: "download", Protocol: "h1", Metric: results.MetricBytesPerSecond, Median: 3e9, Repetitions: make([]results.Repetition, 4)}
		h2c := h1
		h2c.Protocol, h2c.Median, h2c.Baseline = "h2c", 3e9/4*float64(i+1), "h1"
		h2c.RatioToBaseline, h2c.VsBaseline = float64(i+1)/4, ratio(float64(i+1)/4, results.VerdictSlower)
		gv.Cells = append(gv.Cells, results.GoVersionCell{Toolchain: tc, Cell: h1}, results.GoVersionCell{Toolchain: tc, Cell: h2c})
	}
	gv.Changes = []results.GoVersionChange{
		{Scenario: "download", Protocol: "h1", From: "go1.24.13", To: "go1.27.4", Figure: *ratio(1, results.VerdictSimilar)},
		{Scenario: "download", Protocol: "h2c", From: "go1.24.13", To: "go1.27.4", Figure: *ratio(2, results.VerdictFaster), Ratio: ratio(2, results.VerdictFaster)},
	}
	res.GoVersions = gv
	return res
}

func TestGoVersionsText(t *testing.T) {
	var b bytes.Buffer
	if err := GoVersions(&b, goResults()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"go1.99.0: not measured: fetch: toolchain not available\n",
		"go1.27.4: the go command on PATH; binary reports go1.27.4; h2c over net/http; built in 41s",
		"  download go1.24.13  0.25x [0.23, 0.28] slower",
		"  download go1.27.4   0.50x [0.45, 0.55] slower",
		"  download go1.24.13 -> go1.27.4  ≈ 1.00x [0.90, 1.10]  2.00x [1.80, 2.20] faster  2.00x [1.80, 2.20] faster",
		"3.00 GB/s",
		"note: upload: not measured across versions",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
}

func TestGoVersionsHTMLAndMarkdown(t *testing.T) {
	var h, m bytes.Buffer
	if err := goVersionsHTML(&h, goResults()); err != nil {
		t.Fatal(err)
	}
	if err := goVersionsMarkdown(&m, goResults()); err != nil {
		t.Fatal(err)
	}
	page := h.String()
	// One chart: h2c's line through both toolchains, at 0.25x and 0.50x.
	for _, want := range []string{`id="across-download"`, "<polyline", ">0.25x</text>", ">0.50x</text>", ">go1.24.13</text>", ">go1.27.4</text>", "— h2c", "not measured: fetch"} {
		if !strings.Contains(page, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	if n := strings.Count(page, "<circle"); n != 2 {
		t.Errorf("%d points, want 2", n)
	}
	if md := m.String(); !strings.Contains(md, "| download go1.24.13 | 0.25x [0.23, 0.28] slower |") || !strings.Contains(md, "## Changes") {
		t.Errorf("report.md:\n%s", md)
	}
	if err := GoVersions(&h, &results.Results{}); err == nil {
		t.Error("results without go versions rendered")
	}
}

// TestGoVersionsChartOfAWideInterval: an interval of two rounds can reach
// far (one degree of freedom, t 12.7), even past any float: the chart's
// axis stops at goChartMax instead of drawing a tick every unit up to it
// (a run hung here, building a page of millions of ticks).
func TestGoVersionsChartOfAWideInterval(t *testing.T) {
	res := goResults()
	gv := res.GoVersions
	for i := range gv.Cells {
		if c := &gv.Cells[i]; c.Protocol == "h2c" {
			c.VsBaseline = &results.Interval{Ratio: 3, Low: 0.001, High: 1e12, Pairs: 2, Verdict: results.VerdictUndetermined}
			if i > 2 {
				c.VsBaseline.High = math.Inf(1)
			}
		}
	}
	var b bytes.Buffer
	if err := goVersionsHTML(&b, res); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "x</text>"); n > 200 || b.Len() > 1<<20 {
		t.Fatalf("the page has %d axis labels, %d bytes: want the axis cut at %gx", n, b.Len(), goChartMax)
	}
}
