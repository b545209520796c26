package report

import (
	"slices"
	"testing"

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
