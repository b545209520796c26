package report

import (
	"fmt"
	"html/template"
	"math"

	"github.com/httpvs/httpvs/results"
)

// htmlVerdict is the verdict of report.html: a heat map of the ratios to
// h1 (scenarios down, transports across), the main causes, each fix once.
type htmlVerdict struct {
	Title    string
	Head     []string
	Rows     []heatRow
	Variants string
	Noise    string      // the noise floor: the A/A cells' intervals
	RefsNote string      // explains the "without Go" rows, "" if none
	Whys     [][2]string // scenario, its main causes
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

func newHTMLVerdict(res *results.Results) *htmlVerdict {
	v := newVerdict(res)
	if len(v.head) < 2 {
		return nil
	}
	hv := &htmlVerdict{Title: v.title(res), Head: v.head, Variants: v.variants, Noise: v.noise, RefsNote: v.refs, Fixes: v.fixes, Link: v.link}
	if refs := referencesOf(res); refs != nil {
		hv.Refs = &htmlRefs{Title: referencesTitle, Missing: refs.missing, Head: refs.head, Rows: refs.rows, Why: refs.why}
	}
	for i, r := range v.rows {
		row := heatRow{Name: r[0]}
		for j, text := range r[1:] {
			row.Cells = append(row.Cells, heatOf(text, v.grid[i][j]))
		}
		hv.Rows = append(hv.Rows, row)
		if v.whys[i] != "" {
			hv.Whys = append(hv.Whys, [2]string{r[0], v.whys[i]})
		}
	}
	return hv
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
