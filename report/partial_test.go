package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestCutShortCellMarked: a cell a run's end cut short is marked in every
// renderer: '!' beside its median, a mark or '(cut short)' in the verdict, and a
// note with its reason under the table.
func TestCutShortCellMarked(t *testing.T) {
	res := sampleRun()
	res.Partial, res.PartialReason = true, "the server (httpvs serve, started by run) died mid-run: signal: killed"
	res.Cells[1].Partial = "the run ended in round 3 (the server (httpvs serve, started by run) died mid-run: signal: killed): 2 repetitions kept"
	for _, r := range []struct {
		name   string
		render func(*bytes.Buffer) error
		mark   string
	}{
		{"text", func(b *bytes.Buffer) error { return Matrix(b, res) }, markCut + " cut short: the run ended before their rounds were done (1 cell)"},
		{"markdown", func(b *bytes.Buffer) error { return Markdown(b, res) }, markCut + " cut short: the run ended before their rounds were done (1 cell)"},
	} {
		var b bytes.Buffer
		if err := r.render(&b); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, want := range []string{r.mark, "h2c cut short: the run ended in round 3", " !"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: lacks %q:\n%s", r.name, want, out)
			}
		}
	}
}
