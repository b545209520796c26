package report

import (
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/httpvs/httpvs/results"
)

// htmlVerdict is the verdict of report.html: a heat map of the ratios to
// the baseline (scenarios down, transports across), then each cause with
// its fix and each caveat, as the first screen says them.
type htmlVerdict struct {
	Title    string
	Legend   string // what a cell is (mdLegend)
	Head     []string
	Rows     []heatRow
	Variants string
	Noise    string // the noise floor: the A/A cells' intervals
	RefsNote string // explains the "without Go" rows, "" if none
	Fixes    []string
	Refs     *htmlRefs // the reference peers, nil for none
	Link     []string  // across a link: the cells against its bound, and the when in words
}

// htmlRefs is the reference peers' table (references).
type htmlRefs struct {
	Title, Missing string
	Head           []string
	Rows           [][]string
	Why            []string
}

type heatRow struct {
	Name  string
	Cells []heatCell
}

// heatCell is one verdict cell: its text, and a background whose hue says
// slower (red) or faster (green) and whose strength says by how much; grey
// for "≈ h1", none where there is no interval.
type heatCell struct {
	Text  string
	Style template.CSS
	Title string // the interval, for a tooltip
}

// heatFull is the ratio (or its inverse) at which a cell's colour is
// strongest: 4x slower or faster.
const heatFull = 4.0

// newHTMLVerdict lays out the first screen (Screen) as a heat map: its
// header, table (with the reference peers' rows "without Go"), A/A and
// tuned lines, and its cause and caveat lines as the list of what to
// change.
func newHTMLVerdict(res *results.Results) *htmlVerdict {
	s := newScreen(res, nil)
	rows, cells := s.tableRows()
	if rows == nil {
		return nil
	}
	hv := &htmlVerdict{Title: s.header(), Legend: mdLegend(s.base), Head: rows[0], Noise: oneLine(s.aaLine()), Variants: oneLine(s.tunedLine()),
		Fixes: append(s.causeLines(), s.caveatLines()...), Link: linkLines(res)}
	if refs := referencesOf(res); refs != nil {
		hv.Refs = &htmlRefs{Title: referencesTitle, Missing: refs.missing, Head: refs.head, Rows: refs.rows, Why: refs.why}
	}
	for i, r := range rows[1:] {
		row := heatRow{Name: r[0]}
		for j, text := range r[1:] {
			row.Cells = append(row.Cells, heatOf(text, cells[i+1][j]))
		}
		hv.Rows = append(hv.Rows, row)
		if ref := withoutGoRow(res, r[0], rows[0][1:]); ref != nil {
			row := heatRow{Name: ref[0]}
			for _, text := range ref[1:] {
				row.Cells = append(row.Cells, heatCell{Text: text})
			}
			hv.Rows, hv.RefsNote = append(hv.Rows, row), withoutGoNote
		}
	}
	for i, f := range hv.Fixes {
		hv.Fixes[i] = oneLine([]string{f})
	}
	return hv
}

// oneLine joins a screen's lines, wrapping undone, into one.
func oneLine(lines []string) string {
	return strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
}

// heatOf colours one verdict cell.
func heatOf(text string, c *results.Cell) heatCell {
	h := heatCell{Text: text}
	if c == nil || c.VsBaseline == nil || c.VsBaseline.Verdict == results.VerdictUnknown {
		return h
	}
	iv := c.VsBaseline
	h.Title = fmt.Sprintf("%.3fx, 95%% interval %.3f..%.3f over %d paired rounds", iv.Ratio, iv.Low, iv.High, iv.Pairs)
	switch iv.Verdict {
	case results.VerdictSimilar:
		h.Style = "background: hsl(0, 0%, 92%)"
		return h
	case results.VerdictUndetermined:
		// Neither red nor green: the rounds cannot tell.
		h.Style = "background: repeating-linear-gradient(45deg, hsl(0, 0%, 96%), hsl(0, 0%, 96%) 6px, hsl(0, 0%, 88%) 6px, hsl(0, 0%, 88%) 12px)"
		return h
	}
	// Strength grows with the logarithm of the ratio: 2x slower is as
	// strong a red as 2x faster is a green.
	strength := math.Min(math.Abs(math.Log(iv.Ratio))/math.Log(heatFull), 1)
	hue := 0 // red: slower
	if iv.Verdict == results.VerdictFaster {
		hue = 130
	}
	light := 92 - int(strength*40)
	h.Style = template.CSS(fmt.Sprintf("background: hsl(%d, 70%%, %d%%)", hue, light))
	if light < 65 {
		h.Style += "; color: #fff"
	}
	return h
}
