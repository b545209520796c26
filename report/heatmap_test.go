package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/knobs"
	"github.com/httpvs/httpvs/internal/vocab"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// TestHeatColoursFollowTheVerdict: slower is red, faster green, ≈ grey,
// no interval uncoloured; the strength grows with the distance from 1
// alike in both directions.
func TestHeatColoursFollowTheVerdict(t *testing.T) {
	cell := func(ratio, low, high float64, verdict string) *results.Cell {
		return &results.Cell{VsBaseline: &results.Interval{Ratio: ratio, Low: low, High: high, Pairs: 8, Verdict: verdict}}
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
// (before the first scenario's section), says what the variant rows
// found, and every verdict cell of the first screen is in it.
func TestHTMLVerdictComesFirst(t *testing.T) {
	res := sampleRun()
	tuned := knobs.Tuned
	res.Settings.Alongside = &tuned
	variant := *res.Cell("download", "h2c")
	variant.Scenario, variant.Knobs = variant.Scenario+vocab.VariantSep+tuned.Name, tuned.Name
	res.Cells = append(res.Cells, variant)
	analysis.Conclude(res)
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
		"0.49x [0.33, 0.71]", "0.64x [0.63, 0.66]",
		":tuned rows over the same transport as shipped, paired by round:",
		"What to change", "errors",
	} {
		if !strings.Contains(page[verdict:first], want) {
			t.Errorf("verdict section lacks %q", want)
		}
	}
}
