package report

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// screenCell is one verdict cell as the first screen prints it: the
// ratio, both bounds, the marks and the footnote.
var screenCell = regexp.MustCompile(`^(\d+\.\d+)x \[(\d+\.\d+), (\d+\.\d+)\]( [≈?])?([†~!]*)([⁰¹²³⁴⁵⁶⁷⁸⁹]*)$`)

// TestScreenParity: every figure and word on the first screen is
// results.json's for the same cell: each table cell's ratio and bounds
// (as printed), its ≈ or ? against the verdict word, its marks against
// Cell.Marks, its footnote against Cell.MainCause and the cause it
// numbers; the A/A row's too. On the renderers' sample runs and on a run
// judged by the analysis, read back from JSON.
func TestScreenParity(t *testing.T) {
	five := fiveTransports()
	analysis.Conclude(five)
	sample := sampleRun()
	var buf bytes.Buffer
	if err := five.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := results.ReadJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for name, res := range map[string]*results.Results{"five transports": five, "sample": sample, "read back": back} {
		t.Run(name, func(t *testing.T) {
			if n := checkParity(t, res); n == 0 {
				t.Fatal("no cell checked")
			}
		})
	}
}

// checkParity checks the first screen of res against res, cell by cell,
// and returns how many cells it checked.
func checkParity(t *testing.T, res *results.Results) int {
	t.Helper()
	var b bytes.Buffer
	if err := Screen(&b, res, nil); err != nil {
		t.Fatal(err)
	}
	s := newScreen(res, nil)
	cols, folded := s.columns()
	lines := strings.Split(b.String(), "\n")
	checked := 0
	for _, line := range lines[1:] {
		for _, name := range res.ScenarioNames() {
			label, cells := cellsOf(line, name, folded)
			if label == "" {
				continue
			}
			for i, text := range cells {
				c := res.Cell(name, cols[i])
				if label != name {
					c = res.Cell(name, folded)
				}
				if c == nil || text == "" || c.VsBaseline == nil || c.VsBaseline.Pairs < 2 {
					continue
				}
				checkCell(t, res, c, text)
				checked++
			}
		}
	}
	for i := range res.AA {
		c := &res.AA[i]
		if c.VsBaseline != nil && !strings.Contains(b.String(), c.Scenario+" "+boundsText(*c.VsBaseline)) {
			t.Errorf("A/A %s %v is not on the screen:\n%s", c.Scenario, *c.VsBaseline, b.String())
		}
	}
	return checked
}

// cellsOf splits a table line into its cells when it is scenario's row
// (or its folded column's row); label is "" otherwise.
func cellsOf(line, scenario, folded string) (label string, cells []string) {
	for _, l := range []string{scenario + " " + folded, scenario} {
		if folded == "" && l != scenario {
			continue
		}
		rest, ok := strings.CutPrefix(line, l+"  ")
		if !ok {
			continue
		}
		return l, regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(rest), -1)
	}
	return "", nil
}

// checkCell holds one printed cell to c.
func checkCell(t *testing.T, res *results.Results, c *results.Cell, text string) {
	t.Helper()
	m := screenCell.FindStringSubmatch(text)
	if m == nil {
		t.Errorf("%s/%s: %q is not a verdict cell", c.Scenario, c.Protocol, text)
		return
	}
	iv := *c.VsBaseline
	if want := fmt.Sprintf("%.2f %.2f %.2f", iv.Ratio, iv.Low, iv.High); m[1]+" "+m[2]+" "+m[3] != want {
		t.Errorf("%s/%s: printed %s [%s, %s], results.json %s", c.Scenario, c.Protocol, m[1], m[2], m[3], want)
	}
	word := map[string]string{results.VerdictSimilar: " ≈", results.VerdictUndetermined: " ?"}[iv.Verdict]
	if m[4] != word {
		t.Errorf("%s/%s: printed mark %q for verdict %q", c.Scenario, c.Protocol, m[4], iv.Verdict)
	}
	if got, want := strings.Contains(m[5], markMachine), slices.Contains(c.Marks, vocab.MarkMachineBound); got != want {
		t.Errorf("%s/%s: machine-bound mark %v, results.json %v", c.Scenario, c.Protocol, got, want)
	}
	if got, want := strings.Contains(m[5], markFloor), slices.Contains(c.Marks, vocab.MarkWithinFloor); got != want {
		t.Errorf("%s/%s: noise-floor mark %v, results.json %v", c.Scenario, c.Protocol, got, want)
	}
	note := ""
	if c.MainCause != "" && res.Judgement != nil {
		for i, cause := range res.Judgement.Causes {
			if cause.Rule == c.MainCause && slices.Contains(cause.Cells, c.Scenario+"/"+c.Protocol) {
				note = superscript(i + 1)
			}
		}
	}
	if m[6] != note {
		t.Errorf("%s/%s: footnote %q, results.json's main cause %q (%q)", c.Scenario, c.Protocol, m[6], c.MainCause, note)
	}
}
