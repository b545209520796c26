package report

import (
	"fmt"
	"html"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/httpvs/httpvs/results"
)

// HistoryCell names one cell followed across runs: a scenario and a
// transport other than the runs' baseline.
type HistoryCell struct {
	Scenario string
	Protocol string
}

// String is the cell as history --cells takes it: "download/h2c".
func (c HistoryCell) String() string { return c.Scenario + "/" + c.Protocol }

// historyPoint is one cell in one run: its ratio to the baseline with
// the interval the run computed (ok false where the run lacks the cell
// or its interval).
type historyPoint struct {
	ratio, low, high float64
	interval, ok     bool
}

// historyBand is a run's A/A interval (the baseline against itself in
// the same rounds), the width no difference has; ok false without one.
type historyBand struct {
	low, high float64
	ok        bool
}

// history is what the picture shows: per run its label, its A/A band,
// and each cell's point.
type history struct {
	labels []string
	bands  []historyBand
	cells  []HistoryCell
	points [][]historyPoint // [cell][run]
}

// newHistory reads cells' ratios and intervals, and the A/A bands, out
// of runs, in order. The figures are the runs' own (Cell.VsBaseline).
func newHistory(runs []*results.Results, cells []HistoryCell) history {
	h := history{cells: cells}
	for _, r := range runs {
		h.labels = append(h.labels, runLabel(r))
		h.bands = append(h.bands, aaBand(r, cells))
	}
	for _, c := range cells {
		pts := make([]historyPoint, len(runs))
		for i, r := range runs {
			pts[i] = pointOf(r.Cell(c.Scenario, c.Protocol))
		}
		h.points = append(h.points, pts)
	}
	return h
}

func pointOf(c *results.Cell) historyPoint {
	switch {
	case c == nil || c.Skipped != "" || c.RatioToBaseline <= 0:
		return historyPoint{}
	case c.VsBaseline == nil || c.VsBaseline.Pairs < 2 || c.VsBaseline.Low <= 0:
		return historyPoint{ratio: c.RatioToBaseline, ok: true}
	}
	return historyPoint{ratio: c.VsBaseline.Ratio, low: c.VsBaseline.Low, high: c.VsBaseline.High, interval: true, ok: true}
}

// aaBand is run's widest A/A interval among the scenarios of cells, or
// of any scenario when none of theirs has one.
func aaBand(run *results.Results, cells []HistoryCell) historyBand {
	var b historyBand
	widen := func(iv *results.Interval) {
		if iv == nil || iv.Pairs < 2 || iv.Low <= 0 {
			return
		}
		if !b.ok || iv.Low < b.low {
			b.low = iv.Low
		}
		if !b.ok || iv.High > b.high {
			b.high = iv.High
		}
		b.ok = true
	}
	for _, c := range cells {
		for i := range run.AA {
			if run.AA[i].Scenario == c.Scenario {
				widen(run.AA[i].VsBaseline)
			}
		}
	}
	if !b.ok {
		for i := range run.AA {
			widen(run.AA[i].VsBaseline)
		}
	}
	return b
}

// runLabel names a run on a history's axis: its commit and date when it
// recorded a commit, else its start's date and time.
func runLabel(r *results.Results) string {
	date := r.Started.UTC().Format("2006-01-02 15:04")
	if c := r.Env.Commit; c != "" {
		if len(c) > 7 {
			c = c[:7]
		}
		if r.Env.Modified {
			c += "+"
		}
		return c + " " + r.Started.UTC().Format("01-02")
	}
	return date
}

// DefaultHistoryCells are the cells a history follows when none are
// asked for: every transport but the baseline in the last run's first
// scenario.
func DefaultHistoryCells(runs []*results.Results) []HistoryCell {
	if len(runs) == 0 {
		return nil
	}
	last := runs[len(runs)-1]
	var out []HistoryCell
	for _, c := range last.Cells {
		if len(out) > 0 && c.Scenario != out[0].Scenario {
			break
		}
		if c.Protocol != last.Settings.BaselineProtocol() {
			out = append(out, HistoryCell{Scenario: c.Scenario, Protocol: c.Protocol})
		}
	}
	return out
}

// HistoryText writes cells' ratios to the baseline across runs, a row per
// run (its label) and a column per cell, each ratio with its 95%
// interval, and the run's A/A interval.
func HistoryText(w io.Writer, runs []*results.Results, cells []HistoryCell) error {
	h := newHistory(runs, cells)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"run"}
	for _, c := range cells {
		head = append(head, c.String())
	}
	fmt.Fprintln(tw, strings.Join(append(head, "A/A"), "\t")+"\t")
	for i, label := range h.labels {
		row := []string{label}
		for ci := range cells {
			row = append(row, pointText(h.points[ci][i]))
		}
		aa := "-"
		if b := h.bands[i]; b.ok {
			aa = fmt.Sprintf("[%.2f, %.2f]", b.low, b.high)
		}
		fmt.Fprintln(tw, strings.Join(append(row, aa), "\t")+"\t")
	}
	return tw.Flush()
}

func pointText(p historyPoint) string {
	switch {
	case !p.ok:
		return "-"
	case !p.interval:
		return fmt.Sprintf("%.2fx (no interval)", p.ratio)
	}
	return fmt.Sprintf("%.2fx [%.2f, %.2f]", p.ratio, p.low, p.high)
}

// historyHTML writes a page that embeds historySVG's picture, with its
// legend in words and the figures as a table under it.
func historyHTML(w io.Writer, runs []*results.Results, cells []HistoryCell) error {
	p := &printer{w: w}
	fmt.Fprint(p, `<!doctype html><html><head><meta charset="utf-8"><title>httpvs history</title>
<style>body{font:14px system-ui,sans-serif;margin:1em;max-width:100%}svg{max-width:100%;height:auto}
.tbl{overflow-x:auto}table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right;white-space:nowrap}</style></head><body>
<h1>httpvs history</h1>
`)
	fmt.Fprintf(p, "<p>%s</p>\n", html.EscapeString(historyCaption(runs, cells)))
	if err := historySVG(p, runs, cells); err != nil {
		return err
	}
	fmt.Fprint(p, "\n<div class=\"tbl\"><pre>")
	var b strings.Builder
	if err := HistoryText(&b, runs, cells); err != nil {
		return err
	}
	fmt.Fprint(p, html.EscapeString(b.String()))
	fmt.Fprint(p, "</pre></div></body></html>\n")
	return p.err
}

// historyCaption says what the picture shows, in a sentence.
func historyCaption(runs []*results.Results, cells []HistoryCell) string {
	base := "the baseline"
	if len(runs) > 0 {
		base = runs[len(runs)-1].Settings.BaselineProtocol()
	}
	aa := "The grey band is each run's A/A interval (" + base + " against itself in the same rounds): how far from 1 no difference reaches."
	if h := newHistory(runs, cells); !anyBand(h.bands) {
		aa = "These runs have no A/A column (run --aa), so no band of what no difference looks like is drawn."
	}
	return fmt.Sprintf("Each cell's throughput (or req/s) over %s's, run by run in the order given, with the run's own 95%% interval as a bar (log scale; above 1 is faster; a run of one round has no bar). %s Runs are labelled by commit, else by start time (UTC); the figures are each run's own, as its verdict computed them.",
		base, aa)
}

func anyBand(bs []historyBand) bool {
	for _, b := range bs {
		if b.ok {
			return true
		}
	}
	return false
}
