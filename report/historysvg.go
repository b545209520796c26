package report

import (
	"fmt"
	"html"
	"io"
	"math"

	"github.com/httpvs/httpvs/results"
)

// The history picture's geometry, in SVG user units (px at 100%).
const (
	histWidth  = 1200
	histHeight = 520
	histLeft   = 70  // room for the y axis's labels
	histRight  = 20  // margin
	histTop    = 60  // room for the legend
	histBottom = 110 // room for the runs' labels, turned
)

// historyColours are the cells' colours, in order (colour-blind safe:
// Okabe and Ito's palette).
var historyColours = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"}

// historySVG writes cells' ratios to the baseline across runs, in order,
// as an SVG picture: a point per run for each cell with its 95% interval
// as a bar, joined by a line, on a log scale with 1 (no difference)
// marked, each run's A/A interval as a grey band, and the runs labelled
// by commit or date (runLabel).
func historySVG(w io.Writer, runs []*results.Results, cells []HistoryCell) error {
	h := newHistory(runs, cells)
	p := &printer{w: w}
	lo, hi := h.span()
	plotW, plotH := float64(histWidth-histLeft-histRight), float64(histHeight-histTop-histBottom)
	y := func(v float64) float64 {
		return histTop + plotH*(1-(math.Log(v)-math.Log(lo))/(math.Log(hi)-math.Log(lo)))
	}
	step := plotW / float64(max(len(runs), 1))
	x := func(i int) float64 { return histLeft + step*(float64(i)+0.5) }
	fmt.Fprintf(p, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" font-family="system-ui,sans-serif" font-size="13" role="img">`+"\n",
		histWidth, histHeight, histWidth, histHeight)
	fmt.Fprintf(p, "<title>%s</title>\n", html.EscapeString("ratio to the baseline across runs"))
	for i, b := range h.bands {
		if b.ok {
			fmt.Fprintf(p, `<rect class="aa" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#000" fill-opacity="0.12"><title>%s: A/A [%.2f, %.2f]</title></rect>`+"\n",
				x(i)-step/2, y(b.high), step, math.Max(y(b.low)-y(b.high), 1), html.EscapeString(h.labels[i]), b.low, b.high)
		}
	}
	for _, t := range historyTicks(lo, hi) {
		stroke := "#ddd"
		if t == 1 {
			stroke = "#444"
		}
		fmt.Fprintf(p, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="%s"/><text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%gx</text>`+"\n",
			histLeft, histWidth-histRight, y(t), y(t), stroke, histLeft-6, y(t), t)
	}
	for i, label := range h.labels {
		fmt.Fprintf(p, `<text class="run" transform="translate(%.1f %d) rotate(-40)" text-anchor="end">%s</text>`+"\n", x(i), histHeight-histBottom+16, html.EscapeString(label))
	}
	for ci, c := range h.cells {
		colour := historyColours[ci%len(historyColours)]
		off := (float64(ci) - float64(len(h.cells)-1)/2) * math.Min(8, step/float64(len(h.cells)+1))
		h.drawCell(p, ci, colour, func(i int) float64 { return x(i) + off }, y)
		lx, ly := histLeft+(ci%6)*190, 8+(ci/6)%2*16 // six a row, two rows
		fmt.Fprintf(p, `<g class="legend"><rect x="%d" y="%d" width="12" height="12" fill="%s"/><text x="%d" y="%d">%s</text></g>`+"\n",
			lx, ly, colour, lx+16, ly+11, html.EscapeString(c.String()))
	}
	fmt.Fprintf(p, `<text x="%d" y="%d" fill="#555">bars: each run's 95%% interval; grey: its A/A interval; log scale, above 1x is faster than the baseline</text>`+"\n", histLeft, 48)
	fmt.Fprintln(p, "</svg>")
	return p.err
}

// drawCell draws cell ci's line, points and interval bars.
func (h history) drawCell(p *printer, ci int, colour string, x func(int) float64, y func(float64) float64) {
	var path string
	for i, pt := range h.points[ci] {
		if !pt.ok {
			continue
		}
		cmd := "L"
		if path == "" {
			cmd = "M"
		}
		path += fmt.Sprintf("%s%.1f %.1f ", cmd, x(i), y(pt.ratio))
	}
	if path != "" {
		fmt.Fprintf(p, `<path d="%s" fill="none" stroke="%s" stroke-width="1.5" stroke-opacity="0.6"/>`+"\n", path, colour)
	}
	for i, pt := range h.points[ci] {
		if !pt.ok {
			continue
		}
		tip := fmt.Sprintf("%s, %s: %s", h.cells[ci], h.labels[i], pointText(pt))
		if pt.interval {
			fmt.Fprintf(p, `<line class="interval" x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="3"><title>%s</title></line>`+"\n",
				x(i), x(i), y(pt.high), y(pt.low), colour, html.EscapeString(tip))
		}
		fmt.Fprintf(p, `<circle class="point" cx="%.1f" cy="%.1f" r="4.5" fill="%s"><title>%s</title></circle>`+"\n", x(i), y(pt.ratio), colour, html.EscapeString(tip))
	}
}

// span is the y axis's range: every point, bar and band, and 1, with a
// margin, on a log scale.
func (h history) span() (lo, hi float64) {
	lo, hi = 1, 1
	see := func(v float64) {
		if v > 0 {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	for _, pts := range h.points {
		for _, pt := range pts {
			if pt.ok {
				see(pt.ratio)
				if pt.interval {
					see(pt.low)
					see(pt.high)
				}
			}
		}
	}
	for _, b := range h.bands {
		if b.ok {
			see(b.low)
			see(b.high)
		}
	}
	return lo / 1.15, hi * 1.15
}

// historyTicks are the y axis's marks within [lo, hi]: 1, 2 and 5 times
// the powers of ten, or finer steps where those give fewer than four.
func historyTicks(lo, hi float64) []float64 {
	var out []float64
	for _, ms := range [][]float64{{1, 2, 5}, {1, 1.5, 2, 3, 4, 5, 7}, {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9}} {
		out = out[:0]
		for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
			for _, m := range ms {
				v := math.Round(m*math.Pow(10, e)*1e6) / 1e6
				if v >= lo && v <= hi {
					out = append(out, v)
				}
			}
		}
		if len(out) >= 4 {
			break
		}
	}
	return out
}
