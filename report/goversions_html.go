package report

import (
	"fmt"
	"html/template"
	"io"
	"math"

	"github.com/httpvs/httpvs/results"
)

// goPage is report.html for a run across Go toolchains.
type goPage struct {
	Title, Summary, Partial string
	VerdictTitle            string
	ChangesTitle            string
	Toolchains              [][]string
	Head                    []string
	Rows                    []heatRow
	ChHead                  []string
	ChRows                  []heatRow
	FigHead                 []string
	FigRows                 [][]string
	Charts                  []goChart
	NotMeasured             []string
	RunNotes                []string // said once, at the top (runNotes)
	Env                     [][2]string
}

// goChart is one scenario's ratios to the baseline across toolchains: a
// line per transport, each point with its interval as a whisker.
type goChart struct {
	Scenario      string
	Width, Height int
	Base          string
	BaseY         int // the y of ratio 1
	Grid          []goTick
	XLabels       []goTick
	Lines         []goLine
}

type goTick struct {
	Pos   int // y for a grid line, x for a toolchain
	Label string
}

type goLine struct {
	Protocol, Color string
	Points          string // SVG polyline points
	Marks           []goMark
	LegendY         int
	LabelDY         int // the ratios' labels above (odd lines: below) their points
}

type goMark struct {
	X, Y, Lo, Hi int // the ratio, and its interval's ends (y)
	Label        string
}

// Chart geometry, in SVG user units.
const (
	goChartLeft   = 50
	goChartTop    = 16
	goChartPlot   = 220 // the plot's height
	goChartStep   = 150 // between toolchains
	goChartLegend = 110 // room for the transports' names at the right
)

// goColors are the lines' colours, by transport in column order.
var goColors = []string{"#4a7bd0", "#d0544a", "#3c9a5f", "#9b59b6"}

// goVersionsHTML writes a run across Go toolchains as one self-contained
// HTML page (inline CSS and SVG, nothing fetched): the toolchains, the
// verdict as a heat map, a chart per scenario of each transport's ratio
// to the baseline across toolchains with its interval, the changes
// between toolchains, and the figures.
func goVersionsHTML(w io.Writer, res *results.Results) error {
	if res.GoVersions == nil {
		return fmt.Errorf("no go versions in these results")
	}
	v := newGoView(res)
	page := goPage{
		Title: "httpvs run --go, " + res.Started.Format("2006-01-02 15:04:05 MST"), Summary: v.title,
		VerdictTitle: fmt.Sprintf(goVersionsTitle, v.base, v.base), ChangesTitle: fmt.Sprintf(goChangesTitle, v.base),
		Toolchains: v.toolchains, Head: v.head, ChHead: v.chHead, FigHead: v.figHead, FigRows: v.figRows,
		NotMeasured: v.notMeasured, Env: envRows(res), RunNotes: runNotes(res),
	}
	if res.Partial {
		page.Partial = res.PartialReason
	}
	for i, r := range v.rows {
		row := heatRow{Name: r[0]}
		for j, text := range r[1:] {
			row.Cells = append(row.Cells, heatOf(text, v.grid[i][j]))
		}
		page.Rows = append(page.Rows, row)
	}
	for i, r := range v.chRows {
		row := heatRow{Name: r[0]}
		for j, text := range r[1:] {
			var c *results.Cell
			if iv := v.chGrid[i][j]; iv != nil {
				c = &results.Cell{VsBaseline: iv}
			}
			row.Cells = append(row.Cells, heatOf(text, c))
		}
		page.ChRows = append(page.ChRows, row)
	}
	for _, sc := range v.scenarios {
		if ch, ok := goChartOf(res.GoVersions, v, sc); ok {
			page.Charts = append(page.Charts, ch)
		}
	}
	return goTemplate.Execute(w, page)
}

// goChartOf draws sc's ratios to the baseline across the toolchains;
// false when no cell of sc has one.
// goChartMax is the highest ratio a toolchain chart's axis shows.
const goChartMax = 10.0

func goChartOf(gv *results.GoVersions, v goView, sc string) (goChart, bool) {
	ratios := map[[2]string]*results.Interval{}
	top := 1.2
	for _, c := range gv.Cells {
		if c.Scenario == sc && c.VsBaseline != nil && c.VsBaseline.Pairs > 0 {
			ratios[[2]string{c.Toolchain, c.Protocol}] = c.VsBaseline
			for _, v := range []float64{c.VsBaseline.Ratio, c.VsBaseline.High} {
				if !math.IsInf(v, 0) && !math.IsNaN(v) {
					top = math.Max(top, v)
				}
			}
		}
	}
	if len(ratios) == 0 {
		return goChart{}, false
	}
	// An interval of a round or two can reach far (t 12.7 on one degree
	// of freedom): the axis stops at goChartMax, and what lies beyond is
	// drawn at its edge.
	top = math.Min(top, goChartMax)
	step := 0.25
	if top > 3 {
		step = 1
	}
	top = math.Ceil(top/step) * step
	y := func(r float64) int { return goChartTop + int((1-min(max(r, 0), top)/top)*goChartPlot) }
	ch := goChart{Scenario: sc, Base: v.base, BaseY: y(1), Height: goChartTop + goChartPlot + 40,
		Width: goChartLeft + goChartStep*max(len(v.order)-1, 1) + 40 + goChartLegend}
	for r := 0.0; r <= top+1e-9; r += step {
		ch.Grid = append(ch.Grid, goTick{Pos: y(r), Label: fmt.Sprintf("%.2fx", r)})
	}
	x := func(i int) int { return goChartLeft + 20 + i*goChartStep }
	for i, tc := range v.order {
		ch.XLabels = append(ch.XLabels, goTick{Pos: x(i), Label: tc})
	}
	for _, p := range v.head[1:] {
		line := goLine{Protocol: p, Color: goColors[len(ch.Lines)%len(goColors)], LegendY: goChartTop + 14 + 18*len(ch.Lines), LabelDY: -6}
		if len(ch.Lines)%2 == 1 {
			line.LabelDY = 14
		}
		for i, tc := range v.order {
			iv := ratios[[2]string{tc, p}]
			if iv == nil {
				continue
			}
			m := goMark{X: x(i), Y: y(iv.Ratio), Lo: y(iv.Ratio), Hi: y(iv.Ratio), Label: fmt.Sprintf("%.2fx", iv.Ratio)}
			if iv.Pairs >= 2 {
				m.Lo, m.Hi = y(iv.Low), y(iv.High)
			}
			line.Points += fmt.Sprintf("%d,%d ", m.X, m.Y)
			line.Marks = append(line.Marks, m)
		}
		ch.Lines = append(ch.Lines, line)
	}
	return ch, true
}

var goTemplate = template.Must(template.New("goversions").Parse(htmlHead + `<p class="summary">{{.Summary}}</p>
{{if .Partial}}<p class="partial"><strong>Partial run</strong>: {{.Partial}}. The cells below are what was measured until then.</p>{{end}}
{{if .RunNotes}}<ul class="notes">{{range .RunNotes}}<li>{{.}}</li>{{end}}</ul>{{end}}
<h2>Toolchains</h2>
<table><tbody>{{range .Toolchains}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody></table>
{{if .Rows}}<section id="verdict">
<h2>Verdict</h2>
<p class="legend">{{.VerdictTitle}}. Red: slower, green: faster, stronger the further from 1 (full at 4x); grey: ≈.</p>
<table class="heat">
<thead><tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr><td>{{.Name}}</td>{{range .Cells}}<td{{with .Style}} style="{{.}}"{{end}}{{with .Title}} title="{{.}}"{{end}}>{{.Text}}</td>{{end}}</tr>
{{end}}</tbody>
</table>
</section>{{end}}
{{range .Charts}}{{$w := .Width}}{{$h := .Height}}<section id="across-{{.Scenario}}">
<h2>{{.Scenario}}: ratio to {{.Base}} across toolchains</h2>
<p class="legend">Each transport's ratio to {{.Base}} built by the same toolchain; bars: 95% interval; dashed: {{.Base}} (1.00x).</p>
<svg role="img" aria-label="{{.Scenario}}: ratio to {{.Base}} per toolchain" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}" xmlns="http://www.w3.org/2000/svg">
{{range .Grid}}<line x1="50" x2="{{$w}}" y1="{{.Pos}}" y2="{{.Pos}}" stroke="#eee"></line><text x="4" y="{{.Pos}}" dominant-baseline="middle">{{.Label}}</text>
{{end}}<line x1="50" x2="{{.Width}}" y1="{{.BaseY}}" y2="{{.BaseY}}" stroke="#1d1d1f" stroke-dasharray="4 3"></line><text x="{{.Width}}" dx="-100" y="{{.BaseY}}" dy="-4">{{.Base}}</text>
{{range .XLabels}}<text x="{{.Pos}}" y="{{$h}}" dy="-8" text-anchor="middle">{{.Label}}</text>
{{end}}{{range .Lines}}<polyline points="{{.Points}}" fill="none" stroke="{{.Color}}" stroke-width="2"></polyline>
{{$c := .Color}}{{$dy := .LabelDY}}{{range .Marks}}<line x1="{{.X}}" x2="{{.X}}" y1="{{.Lo}}" y2="{{.Hi}}" stroke="{{$c}}" stroke-width="1.5"></line><circle cx="{{.X}}" cy="{{.Y}}" r="3.5" fill="{{$c}}"></circle><text x="{{.X}}" dx="7" y="{{.Y}}" dy="{{$dy}}">{{.Label}}</text>
{{end}}<text x="{{$w}}" dx="-100" y="{{.LegendY}}" fill="{{.Color}}" style="fill: {{.Color}}">— {{.Protocol}}</text>
{{end}}</svg>
</section>
{{end}}
{{if .ChRows}}<section id="changes">
<h2>Changes between toolchains</h2>
<p class="legend">{{.ChangesTitle}}.</p>
<table class="heat">
<thead><tr>{{range .ChHead}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .ChRows}}<tr><td>{{.Name}}</td>{{range .Cells}}<td{{with .Style}} style="{{.}}"{{end}}{{with .Title}} title="{{.}}"{{end}}>{{.Text}}</td>{{end}}</tr>
{{end}}</tbody>
</table>
</section>{{end}}
{{if .FigRows}}<h2>Figures</h2>
<p class="legend">Median of the rounds.</p>
<table>
<thead><tr>{{range .FigHead}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .FigRows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody>
</table>{{end}}
{{if .NotMeasured}}<ul class="notes">{{range .NotMeasured}}<li>{{.}}</li>{{end}}</ul>{{end}}
<h2>Environment</h2>
<dl>{{range .Env}}<dt>{{index . 0}}</dt><dd>{{index . 1}}</dd>{{end}}</dl>
</body>
</html>
`))
