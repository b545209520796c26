package report

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/results"
)

// TestCaveatLinesSayTheirFix: a caveat rule's cells with a fix and those
// without are two lines, the first with the setting that tries it, never
// two identical lines.
func TestCaveatLinesSayTheirFix(t *testing.T) {
	what := "the generator's CPU, not the transport, limited the figure"
	res := &results.Results{Judgement: &results.Judgement{Caveats: []results.Cause{
		{Rule: "generator-bound", What: what, Knobs: []results.Knob{{Field: "Engine", Value: "fast"}}, Cells: []string{"headers-body/h1-tls"}},
		{Rule: "generator-bound", What: what, Cells: []string{"grpc-50/h1-tls"}},
	}}}
	flags := func(field string) (string, bool) {
		return map[string]string{"Engine": "--engine"}[field], field == "Engine"
	}
	got := newScreen(res, flags).caveatLines()
	want := []string{
		"caveat generator-bound: " + what + "; try --engine fast (1 cell)",
		"caveat generator-bound: " + what + " (1 cell)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("caveat lines\n%q\nwant\n%q", got, want)
	}
}

// TestOverrunLine: a run whose rounds ended past their budget says by
// how much on the first screen, in one line with what they took and
// their estimate (from the results), the flag named; one within it says
// nothing; an estimate not recorded is shown unknown.
func TestOverrunLine(t *testing.T) {
	began := time.Date(2026, 12, 7, 8, 0, 0, 0, time.UTC)
	res := &results.Results{Started: began, Finished: began.Add(104 * time.Second), Settings: results.Settings{
		BudgetSeconds: 48.2, OverrunSeconds: 55.8, EstimatedSeconds: 51.4}}
	flags := func(field string) (string, bool) { return "--budget", field == "Budget" }
	want := "over budget: the run's rounds took 1m44s, 56s past the 48s the budget left them (--budget); their first rounds were estimated at 51s"
	if got := newScreen(res, flags).warnings(); len(got) != 1 || strings.ReplaceAll(got[0], "\n  ", " ") != want {
		t.Errorf("warnings %q\nwant %q", got, want)
	}
	res.Settings.EstimatedSeconds = 0
	if got := newScreen(res, nil).overrunLine(); !strings.HasSuffix(got, "(Budget); their first rounds were estimated at unknown") {
		t.Errorf("no estimate, no flags: %q", got)
	}
	res.Settings.OverrunSeconds = 0
	if got := newScreen(res, flags).warnings(); len(got) != 0 {
		t.Errorf("within budget: %q, want nothing", got)
	}
}
