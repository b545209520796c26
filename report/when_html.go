package report

import (
	"html/template"
	"io"
	"strings"

	"github.com/httpvs/httpvs/results"
)

// whenPage is the When table as a page: the links across, each cell
// coloured as the verdict's heat map.
type whenPage struct {
	Title, Legend string
	Head          []string
	Info          [][]string // the measured link and its loss, a row each
	Rows          []whenRow
	Words         []string // whenAcross: each transport in words, and the crossover
}

type whenRow struct {
	Scenario, Protocol string
	Cells              []heatCell
}

// whenHTML writes When as one self-contained HTML page: a heat map with a
// column per link (red slower than h1 on that link, green faster, grey
// ≈ h1), the calibrated link and its loss above.
func whenHTML(w io.Writer, runs []*results.Results) error {
	wt := newWhen(runs)
	page := whenPage{Title: "httpvs run: when", Legend: strings.TrimPrefix(whenTitle, "when: "), Head: wt.head[2:]}
	for _, r := range [][]string{wt.calib, wt.loss, wt.cc} {
		page.Info = append(page.Info, append([]string{r[0]}, r[2:]...))
	}
	for i, r := range wt.rows {
		row := whenRow{Scenario: r[0], Protocol: r[1]}
		for j, text := range r[2:] {
			row.Cells = append(row.Cells, heatOf(text, wt.grid[i][j]))
		}
		page.Rows = append(page.Rows, row)
	}
	page.Words = whenAcross(runs)
	return whenTemplate.Execute(w, page)
}

var whenTemplate = template.Must(template.New("when").Parse(htmlHead + `<p class="legend">{{.Legend}}. Red: slower than h1 on that link, green: faster, stronger the further from 1 (full at 4x); grey: ≈ h1.</p>
<table class="heat">
<thead><tr><th>scenario</th><th>transport</th>{{range .Head}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Info}}<tr><td>{{index . 0}}</td><td></td>{{range slice . 1}}<td>{{.}}</td>{{end}}</tr>
{{end}}{{range .Rows}}<tr><td>{{.Scenario}}</td><td>{{.Protocol}}</td>{{range .Cells}}<td{{with .Style}} style="{{.}}"{{end}}{{with .Title}} title="{{.}}"{{end}}>{{.Text}}</td>{{end}}</tr>
{{end}}</tbody>
</table>
{{if .Words}}<pre class="link">{{range .Words}}{{.}}
{{end}}</pre>{{end}}
</body>
</html>
`))
