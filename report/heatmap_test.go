package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/runfiles"
	"github.com/httpvs/httpvs/internal/verdict"
	"github.com/httpvs/httpvs/results"
)

// TestHeatColoursFollowTheVerdict: slower is red, faster green, ≈ grey,
// no interval uncoloured; the strength grows with the distance from 1
// alike in both directions.
func TestHeatColoursFollowTheVerdict(t *testing.T) {
	cell := func(ratio, low, high float64, verdict string) *results.Cell {
		return &results.Cell{VsH1: &results.Interval{Ratio: ratio, Low: low, High: high, Pairs: 8, Verdict: verdict}}
	}
	for _, tc := range []struct {
		c    *results.Cell
		want string
	}{
		{cell(0.5, 0.45, 0.55, results.VerdictSlower), "background: hsl(0, 70%, 72%)"},
		{cell(2, 1.8, 2.2, results.VerdictFaster), "background: hsl(130, 70%, 72%)"},
		{cell(0.25, 0.2, 0.3, results.VerdictSlower), "background: hsl(0, 70%, 52%); color: #fff"},
		{cell(0.1, 0.09, 0.11, results.VerdictSlower), "background: hsl(0, 70%, 52%); color: #fff"}, // beyond 4x: full
		{cell(0.97, 0.9, 1.05, results.VerdictSimilar), "background: hsl(0, 0%, 92%)"},
		{cell(0.97, 0, 0, results.VerdictUnknown), ""},
		{&results.Cell{}, ""},
		{nil, ""},
	} {
		if got := string(heatOf("x", tc.c).Style); got != tc.want {
			t.Errorf("%+v: style %q, want %q", tc.c, got, tc.want)
		}
	}
}

// TestHTMLVerdictComesFirst: report.html opens with the verdict's heat map
// (before the first scenario's section), names the variant rows, and
// every verdict cell of the text report is in it.
func TestHTMLVerdictComesFirst(t *testing.T) {
	res := sampleRun()
	tuned := runfiles.Tuned
	res.Settings.Alongside = &tuned
	variant := res.Cells[0]
	variant.Scenario, variant.Knobs = variant.Scenario+verdict.VariantSep+tuned.Name, tuned.Name
	res.Cells = append(res.Cells, variant)
	var b bytes.Buffer
	if err := HTML(&b, res); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	verdict, first := strings.Index(page, `<section id="verdict">`), strings.Index(page, `<section id="download">`)
	if verdict < 0 || first < 0 || verdict > first {
		t.Fatalf("verdict section at %d, first scenario at %d", verdict, first)
	}
	for _, want := range []string{
		`<table class="heat">`,
		"0.49x [0.33, 0.71] slower", "0.64x [0.63, 0.66] slower",
		"rows ending :tuned: the same transfer with the client knobs of tuned (Client.ReadSize=256Ki, Client.HTTP2.MaxReadFrameSize=1Mi)",
		"What to change", "errors",
	} {
		if !strings.Contains(page[verdict:first], want) {
			t.Errorf("verdict section lacks %q", want)
		}
	}
}

// TestFixNamesTheVariantThatMovedIt: a fix whose knobs the alongside set
// sets cites the variant's ratio beside the cell's, a gain only where the
// variant's interval lies above the cell's; a fix with a knob the set
// lacks, or no knobs, cites nothing.
func TestFixNamesTheVariantThatMovedIt(t *testing.T) {
	tuned := runfiles.Tuned
	res := &results.Results{Settings: results.Settings{Alongside: &tuned}, Cells: []results.Cell{
		{Scenario: "download", Protocol: "h2c", VsH1: &results.Interval{Ratio: 0.27, Low: 0.25, High: 0.29, Pairs: 8}},
		{Scenario: "download:tuned", Protocol: "h2c", VsH1: &results.Interval{Ratio: 0.68, Low: 0.6, High: 0.75, Pairs: 8}},
		{Scenario: "download", Protocol: "h2", VsH1: &results.Interval{Ratio: 0.15, Low: 0.12, High: 0.18, Pairs: 8}},
		{Scenario: "download:tuned", Protocol: "h2", VsH1: &results.Interval{Ratio: 0.12, Low: 0.1, High: 0.14, Pairs: 8}},
	}}
	c := &res.Cells[0]
	reads := results.Finding{Knobs: []results.Knob{{Field: "Client.ReadSize", Value: "256Ki"}}}
	if got, raised := movedBy(res, c, reads); got != "download/h2c 0.27x -> 0.68x" || !raised {
		t.Errorf("movedBy = %q, %v; want download/h2c 0.27x -> 0.68x, raised", got, raised)
	}
	if got, raised := movedBy(res, &res.Cells[2], reads); got != "download/h2 0.15x -> 0.12x" || raised {
		t.Errorf("a change for the worse: movedBy = %q, raised %v", got, raised)
	}
	windows := results.Finding{Knobs: []results.Knob{{Field: "Client.ReadSize", Value: "256Ki"}, {Field: "Client.HTTP2.MaxReceiveBufferPerStream", Value: "16Mi"}}}
	if got, _ := movedBy(res, c, windows); got != "" {
		t.Errorf("a fix with a knob tuned does not set: movedBy = %q", got)
	}
	if got, _ := movedBy(res, c, results.Finding{}); got != "" {
		t.Errorf("a fix without knobs: movedBy = %q", got)
	}
	l := newFixList(res, "h1")
	res.Cells[0].Findings = []results.Finding{{Rule: "h2-small-reads", Fix: "read in big buffers", Knobs: reads.Knobs}}
	res.Cells[2].Findings = res.Cells[0].Findings
	l.add(&res.Cells[0])
	l.add(&res.Cells[2])
	short, _ := l.lines()
	want := "measured with knobs tuned (the fixes above that it sets, together): raised download/h2c 0.27x -> 0.68x; no measured gain (intervals not apart, or lower) download/h2 0.15x -> 0.12x"
	if last := short[len(short)-1]; last != want {
		t.Errorf("fix list's last line\n%s\nwant\n%s", last, want)
	}
}
