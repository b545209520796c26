package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// TestWriteRun: a run's directory holds its four files, named by its
// start; a second run started the same second gets name-2; the report.md
// written is the one Markdown renders.
func TestWriteRun(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "out") // created on demand
	res := sampleRun()
	first, err := WriteRun(parent, res)
	if err != nil {
		t.Fatal(err)
	}
	second, err := WriteRun(parent, res)
	if err != nil {
		t.Fatal(err)
	}
	name := res.Started.Local().Format("20060102-150405")
	if first != filepath.Join(parent, name) || second != filepath.Join(parent, name+"-2") {
		t.Fatalf("directories %s and %s, want %s and its -2", first, second, name)
	}
	if got := names(t, first); !slices.Equal(got, []string{"bench.txt", "report.html", "report.md", "results.json"}) {
		t.Fatalf("files %v", got)
	}
	md, err := os.ReadFile(filepath.Join(first, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := Markdown(&want, res); err != nil {
		t.Fatal(err)
	}
	if string(md) != want.String() {
		t.Fatal("report.md differs from Markdown's rendering")
	}
	f, err := os.Open(filepath.Join(first, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	back, err := results.ReadJSON(f)
	if err != nil || len(back.Cells) != len(res.Cells) {
		t.Fatalf("results.json read back: %v, %d cells of %d", err, len(back.Cells), len(res.Cells))
	}
}

// TestWriteDirStopsAtARenderError: a file that fails to render is not
// written, nor are the files after it, and the error names it.
func TestWriteDirStopsAtARenderError(t *testing.T) {
	broken := errors.New("broken")
	ok := func(w io.Writer) error { _, err := io.WriteString(w, "ok"); return err }
	dir, err := writeDir(t.TempDir(), "x", []dirFile{
		{"a.txt", ok},
		{"b.txt", func(w io.Writer) error { io.WriteString(w, "half"); return broken }},
		{"c.txt", ok},
	})
	if !errors.Is(err, broken) || err.Error() != "render b.txt: broken" {
		t.Fatalf("%v", err)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"a.txt"}) {
		t.Fatalf("files %v, want a.txt alone", got)
	}
	if _, err := WriteWhen(t.TempDir(), nil); err == nil {
		t.Fatal("WriteWhen with no runs: no error")
	}
}

// names lists dir's files, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

// TestWriteCapacity: a capacity search's directory holds capacity.json
// and report.md, named by the search's start (name-2 the second time);
// report.md is a heading with the objective and the start in UTC over
// the text Capacity writes, in a code block; capacity.json reads back.
func TestWriteCapacity(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "out")
	cores := 0.75
	obj, err := analysis.ParseObjective("p99<50ms,errors<1%")
	if err != nil {
		t.Fatal(err)
	}
	c := &results.Capacity{Objective: obj, Request: "GET /small", Baseline: "h1", Stopped: "budget 2m0s spent",
		Transports: []results.CapacityResult{
			{Protocol: "h1", Met: 4000, Missed: 8000, MissedBecause: "p99 61ms", ServerCores: &cores, Steps: []results.CapacityStep{
				{Rate: 4000, Achieved: 3990, Latency: 0.01, Requests: 4000, Met: true},
				{Rate: 8000, Achieved: 7000, Latency: 0.061, Requests: 8000, Why: "p99 61ms"}}},
			{Protocol: "h2c", Met: 8000, VsBaseline: &results.CapacityRatio{Ratio: 2, ResolutionLow: 1, Searches: 1}, Steps: []results.CapacityStep{
				{Rate: 8000, Achieved: 7990, Latency: 0.02, Requests: 8000, Met: true}}},
		}}
	notRun := []results.NotRun{{Protocol: "h3", Reason: "no UDP"}}
	began := time.Date(2026, 3, 4, 5, 6, 7, 0, time.FixedZone("CET", 3600))
	first, err := WriteCapacity(parent, c, notRun, began)
	if err != nil {
		t.Fatal(err)
	}
	second, err := WriteCapacity(parent, c, notRun, began)
	if err != nil {
		t.Fatal(err)
	}
	name := began.Local().Format("20060102-150405")
	if first != filepath.Join(parent, name) || second != filepath.Join(parent, name+"-2") {
		t.Fatalf("directories %s and %s, want %s and its -2", first, second, name)
	}
	if got := names(t, first); !slices.Equal(got, []string{"capacity.json", "report.md"}) {
		t.Fatalf("files %v", got)
	}
	md, err := os.ReadFile(filepath.Join(first, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "# httpvs run --slo 'p99<50ms,errors<1%', 2026-03-04 04:06:07 UTC\n\n```\n" +
		"capacity at p99<50ms,errors<1%, GET /small: the highest open-loop rate each transport carried within the objective,\n" +
		"  latency from each request's intended send time\n" +
		"       met   missed at                      vs h1                            server cores  \n" +
		"  h1   4000  8000 (p99 61ms)                1.00x                            0.75          \n" +
		"  h2c  8000  none up to the search's bound  2.00x (resolution 1.00 to open)  n/a           \n" +
		"  (rates in requests per second, 3 tried in all; met and missed bracket the capacity in the median search: the search's\n" +
		"  resolution, not an interval; one search: the ratio shows the resolution its brackets allow, and with no spread between\n" +
		"  searches it has no verdict (a longer budget repeats the search))\n" +
		"  stopped: budget 2m0s spent\n" +
		"  not run: h3: no UDP\n" +
		"```\n"
	if string(md) != want {
		t.Errorf("report.md:\n%s\nwant\n%s", md, want)
	}
	b, err := os.ReadFile(filepath.Join(first, "capacity.json"))
	if err != nil {
		t.Fatal(err)
	}
	var back results.CapacityFile
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Capacity == nil || back.Capacity.Objective != obj || len(back.Capacity.Transports) != 2 || *back.Capacity.Transports[0].ServerCores != cores ||
		!slices.Equal(back.NotRun, notRun) {
		t.Errorf("capacity.json read back: %+v, not run %v", back.Capacity, back.NotRun)
	}
}
