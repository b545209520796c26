package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/stats"
)

// TestNoCountingRepetitionNoFigure: a cell every repetition of which
// failed shows its errors and no figure (not a median of 0).
func TestNoCountingRepetitionNoFigure(t *testing.T) {
	res := sampleRun()
	var failed stats.ErrorCounts
	failed.Count(stats.ErrReset)
	h2c := &res.Cells[4] // small-sequential over h2c
	for i := range h2c.Repetitions {
		h2c.Repetitions[i].Errors = failed
	}
	analysis.Summarise(res)
	var b bytes.Buffer
	if err := Matrix(&b, res); err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(b.String(), "\nsmall-sequential:")
	if !ok {
		t.Fatalf("no small-sequential table in\n%s", b.String())
	}
	want := map[string]string{"median": "-", "p50 / p99": "-", "connections": "-", "errors": "3"}
	for _, line := range strings.Split(table, "\n") {
		for name, v := range want {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(line), name+" "); ok {
				f := strings.Fields(rest)
				if got := f[len(f)-1]; got != v {
					t.Errorf("%s: h2c shows %q, want %q (%s)", name, got, v, line)
				}
				delete(want, name)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("rows not found: %v in\n%s", want, table)
	}
}
