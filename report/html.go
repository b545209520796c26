package report

import (
	"fmt"
	"html/template"
	"io"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// HTML writes a matrix run as one self-contained HTML page: inline CSS and
// SVG, no script, nothing fetched from the network. Each scenario gets a
// bar chart of the transports' medians (with min..max whiskers) and the
// table Matrix prints. A run across Go versions (res.GoVersions) it
// writes as goVersionsHTML does.
func HTML(w io.Writer, res *results.Results) error {
	if res.GoVersions != nil {
		return goVersionsHTML(w, res)
	}
	page := htmlPage{Title: "httpvs run, " + res.Started.Format("2006-01-02 15:04:05 MST"), Summary: runLine(res), Env: envRows(res), Verdict: newHTMLVerdict(res), RunNotes: runNotes(res)}
	if res.Partial {
		page.Partial = res.PartialReason
	}
	for _, g := range grids(res) {
		page.Scenarios = append(page.Scenarios, htmlScenario{
			Name: g.scenario.Name, Title: g.title, Head: g.head, Rows: g.rows, Notes: g.notes, Chart: chart(g),
		})
	}
	for _, n := range res.NotRun {
		page.NotRun = append(page.NotRun, notRunText(n, nil))
	}
	page.Sizing = res.Sizing
	if t := newBrowserTable(res); t != nil {
		page.Browser = &htmlScenario{Name: vocab.BrowserScenario, Title: t.title, Head: t.head, Rows: t.rows, Notes: t.notes}
	}
	return htmlTemplate.Execute(w, page)
}

type htmlPage struct {
	Title, Summary, Partial string
	Env                     [][2]string
	Verdict                 *htmlVerdict
	Scenarios               []htmlScenario
	// NotRun and Sizing are what the target lacked and how the user's
	// requests were sized (results.Results' own); Browser is the real
	// browser's table, nil without one.
	NotRun, Sizing []string
	Browser        *htmlScenario
	// RunNotes are said once, at the top (runNotes).
	RunNotes []string
}

type htmlScenario struct {
	Name, Title string
	Head        []string
	Rows        [][]string
	Notes       []string
	Chart       svgChart
}

// svgChart is a horizontal bar chart, in SVG user units.
type svgChart struct {
	Width, Height int
	Bars          []svgBar
}

type svgBar struct {
	Label, Value string
	Y, W         int // top and length of the bar
	WhiskerY     int // vertical middle of the bar
	Lo, Hi       int // whisker ends (min and max); equal when there is one repetition
	Noisy        bool
}

// Chart geometry.
const (
	chartLeft  = 70  // room for the transport names
	chartWidth = 460 // the longest bar
	chartRight = 190 // room for the value label
	barHeight  = 22
	barGap     = 8
)

func chart(g grid) svgChart {
	var top float64
	for _, c := range g.cells {
		if c != nil && c.Skipped == "" {
			top = max(top, c.Max)
		}
	}
	ch := svgChart{Width: chartLeft + chartWidth + chartRight}
	scale := func(v float64) int {
		if top == 0 {
			return chartLeft
		}
		return chartLeft + int(v/top*chartWidth)
	}
	y := barGap
	for _, c := range g.cells {
		if c == nil {
			continue
		}
		b := svgBar{Label: c.Protocol, Y: y, WhiskerY: y + barHeight/2, Noisy: c.Noisy}
		switch {
		case c.Skipped != "":
			b.Value = "skipped"
			b.Lo, b.Hi = chartLeft, chartLeft
		default:
			b.W = scale(g.same.of(c)) - chartLeft
			b.Lo, b.Hi = scale(c.Min), scale(c.Max)
			b.Value = metricValue(c.Metric, g.same.of(c))
			if c.Ratio > 0 {
				b.Value += fmt.Sprintf("  %.2fx", c.Ratio)
			}
		}
		ch.Bars = append(ch.Bars, b)
		y += barHeight + barGap
	}
	ch.Height = y
	return ch
}

var htmlTemplate = template.Must(template.New("report").Parse(htmlHead + `<p class="summary">{{.Summary}}</p>
{{if .Partial}}<p class="partial"><strong>Partial run</strong>: {{.Partial}}. The cells below are what was measured until then.</p>{{end}}
{{if .RunNotes}}<ul class="notes">{{range .RunNotes}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .NotRun}}<p class="legend">Not run:</p><ul class="notes">{{range .NotRun}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Sizing}}<p class="legend">Your requests' rounds, sized from a probe:</p><ul class="notes">{{range .Sizing}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{with .Verdict}}<section id="verdict">
<h2>Verdict</h2>
<p class="legend">{{.Title}}. {{.Legend}} Red: slower, green: faster, stronger the further from 1 (full at 4x); grey: ≈.</p>
<table class="heat">
<thead><tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr><td>{{.Name}}</td>{{range .Cells}}<td{{with .Style}} style="{{.}}"{{end}}{{with .Title}} title="{{.}}"{{end}}>{{.Text}}</td>{{end}}</tr>
{{end}}</tbody>
</table>
{{if .Noise}}<p class="legend">{{.Noise}}</p>{{end}}{{if .Variants}}<p class="legend">{{.Variants}}</p>{{end}}{{if .RefsNote}}<p class="legend">{{.RefsNote}}</p>{{end}}
{{if .Link}}<pre class="link">{{range .Link}}{{.}}
{{end}}</pre>{{end}}

{{with .Refs}}{{if .Missing}}<p class="legend">Reference peers not installed: {{.Missing}}</p>{{end}}
{{if .Rows}}<h3>Reference peers</h3><p class="legend">{{.Title}}</p>
<table><thead><tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody></table>
{{if .Why}}<ul>{{range .Why}}<li>{{.}}</li>{{end}}</ul>{{end}}{{end}}{{end}}
{{if .Fixes}}<h3>What to change</h3><ul>{{range .Fixes}}<li>{{.}}</li>{{end}}</ul>{{end}}
</section>{{end}}
{{range .Scenarios}}
<section id="{{.Name}}">
<h2>{{.Title}}</h2>
<p class="legend">Bars: median over the rounds the ratio used (the notes say when not all); line: min..max; gold: spread over 10%; ratio: to h1 (above 1.00x is faster than HTTP/1.1).</p>
<svg role="img" aria-label="{{.Name}}: median per transport" width="{{.Chart.Width}}" height="{{.Chart.Height}}" viewBox="0 0 {{.Chart.Width}} {{.Chart.Height}}" xmlns="http://www.w3.org/2000/svg">
{{range .Chart.Bars}}<text x="4" y="{{.WhiskerY}}" dominant-baseline="middle">{{.Label}}</text>
<rect class="bar{{if .Noisy}} noisy{{end}}" x="70" y="{{.Y}}" width="{{.W}}" height="22"></rect>
<line class="whisker" x1="{{.Lo}}" x2="{{.Hi}}" y1="{{.WhiskerY}}" y2="{{.WhiskerY}}"></line>
<text x="{{.Hi}}" dx="6" y="{{.WhiskerY}}" dominant-baseline="middle">{{.Value}}</text>
{{end}}</svg>
{{if .Rows}}<table>
<thead><tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody>
</table>{{end}}
{{if .Notes}}<ul class="notes">{{range .Notes}}<li>{{.}}</li>{{end}}</ul>{{end}}
</section>
{{end}}
{{with .Browser}}<section id="{{.Name}}">
<h2>{{.Title}}</h2>
<table><thead><tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody></table>
{{if .Notes}}<ul class="notes">{{range .Notes}}<li>{{.}}</li>{{end}}</ul>{{end}}
</section>{{end}}
<h2>Environment</h2>
<dl>{{range .Env}}<dt>{{index . 0}}</dt><dd>{{index . 1}}</dd>{{end}}</dl>
</body>
</html>
`))

// htmlHead opens every page httpvs writes, up to its heading: the page's
// data has a Title.
const htmlHead = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
` + htmlStyle + `</head>
<body>
<h1>{{.Title}}</h1>
`

// htmlStyle is the CSS of every page httpvs writes.
//
// Every page fits a screen 1,366 px wide whatever the run (a link's
// words, a long URL, many columns): long lines wrap, even monospace ones
// and words without spaces; a table's cells (not its first column) wrap
// between words when it would be wider than the page; a table still too
// wide scrolls inside its own box, and a chart scales down, rather than
// widen the page (TestPagesFitTheScreen).
const htmlStyle = `<style>
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 1100px; padding: 0 1em; color: #1d1d1f; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; }
svg { max-width: 100%; height: auto; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; border-bottom: 1px solid #ddd; }
p.summary, p.legend { color: #555; } p.legend { font-size: .9em; margin: .2em 0; }
.partial { background: #fff3cd; border: 1px solid #e0c36c; padding: .5em 1em; }
table { border-collapse: collapse; margin: .5em 0; display: block; max-width: 100%; overflow-x: auto; }
table.heat td { text-align: center; }
table.heat td:first-child { text-align: left; }
th, td { padding: .2em .8em; text-align: right; border-bottom: 1px solid #eee; white-space: nowrap; }
td { white-space: normal; overflow-wrap: normal; }
th:first-child, td:first-child { text-align: left; color: #555; white-space: nowrap; }
thead th { border-bottom: 2px solid #ccc; }
ul.notes { color: #6b4e00; }
svg text { font: 12px system-ui, sans-serif; fill: #1d1d1f; }
svg .bar { fill: #4a7bd0; } svg .bar.noisy { fill: #c9a227; }
svg .whisker { stroke: #1d1d1f; stroke-width: 1.5; }
dl { display: grid; grid-template-columns: max-content auto; gap: .2em 1em; }
dt { color: #555; } dd { margin: 0; font-family: ui-monospace, monospace; word-break: break-all; }
</style>
`
