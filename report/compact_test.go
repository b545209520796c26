package report

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// unwrapped is s with its wrapping undone: every run of spaces and line
// breaks as one space, so that a test finds a sentence wherever the
// text report broke it.
func unwrapped(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestCompactCell: a cell with an interval shows its ratio, half-width
// and verdict in short words; one without keeps its full text.
func TestCompactCell(t *testing.T) {
	cell := func(ratio, low, high float64, verdict string) *results.Cell {
		return &results.Cell{Protocol: "h2c", VsH1: &results.Interval{Ratio: ratio, Low: low, High: high, Pairs: 6, Verdict: verdict}}
	}
	for _, tc := range []struct {
		c    *results.Cell
		mb   bool
		want string
	}{
		{cell(0.27, 0.22, 0.33, results.VerdictSlower), false, "0.27x ±20% slow"},
		{cell(1.5, 1.4, 1.6, results.VerdictFaster), false, "1.50x ±7% fast"},
		{cell(0.94, 0.83, 1.06, results.VerdictSimilar), false, "0.94x ±12% ≈"},
		{cell(1.21, 0.95, 1.54, results.VerdictUndetermined), false, "1.21x ±24% ?"},
		{cell(0.88, 0.86, 0.9, results.VerdictSlower), true, "0.88x ±2% machine-bound"},
		{&results.Cell{Protocol: "h2c", VsH1: &results.Interval{Ratio: 0.18, Pairs: 1}}, false, "full text"},
		{nil, false, "full text"},
	} {
		if got := compactCell(tc.c, "full text", nil, tc.mb); got != tc.want {
			t.Errorf("compactCell = %q, want %q", got, tc.want)
		}
	}
}
