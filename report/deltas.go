package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// Deltas writes two runs' cells side by side: old and new medians, the
// change of the value itself, and the change of the cell's ratio to its
// run's baseline (rounds paired as the verdict pairs them). The test looks
// at the ratio where there is one (a moderated t-test: each cell's
// spread drawn toward all the ratio cells'), else at the value (Welch's
// t-test), its p-value corrected for the number of cells tested; "~" marks a
// change the runs cannot tell from noise. A baseline whose own value moved
// is called out under the table: the ratios to it hide that move.
func Deltas(w io.Writer, c results.Comparison) error {
	ds := c.Cells
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\ttransport\told\tnew\tvalue\tvs baseline\tratio\tp\tn\t")
	var notes []string
	cellsByNote := map[string][]string{}
	tested := 0
	for _, d := range ds {
		c := deltaCells(d)
		if d.Tested != "" {
			tested++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d+%d\t\n", d.Scenario, d.Protocol, c.old, c.new, c.value, c.vs, c.ratio, c.p, d.OldN, d.NewN)
		if d.Note != "" && !d.Untestable {
			if cellsByNote[d.Note] == nil {
				notes = append(notes, d.Note)
			}
			cellsByNote[d.Note] = append(cellsByNote[d.Note], d.Scenario+" "+d.Protocol)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	ew := &printer{w: w}
	if tested > 0 {
		fmt.Fprintf(ew, "value: the change of the figure itself (new/old - 1), which a busier machine moves as much as the code; ratio: of the ratio to the run's baseline (each run's rounds paired as its verdict pairs them); p: a t-test on the logarithms of the ratio where there is one (moderated: each cell's spread drawn toward all the ratio cells', as limma's), else of the value (Welch's), corrected for the %d cells tested (Holm; the values beside ratios are a family of their own); ~: not significant at %.2f\n", tested, ds[0].Alpha)
	}
	for _, line := range baselineMoveLines(c.BaselineMoved) {
		fmt.Fprintln(ew, line)
	}
	if c.NotTestedReason != "" {
		fmt.Fprintln(ew, c.NotTestedReason)
	}
	for _, n := range notes {
		fmt.Fprintf(ew, "note: %s: %s\n", n, strings.Join(cellsByNote[n], ", "))
	}
	return ew.err
}

// deltaRow is one row of Deltas's table, as text.
type deltaRow struct{ old, new, value, vs, ratio, p string }

// deltaCells formats d's row: the test's "~" and p beside the figure it
// tested (the ratio's change, or the value's for a cell without one).
func deltaCells(d results.Delta) deltaRow {
	r := deltaRow{old: "-", new: "-", value: "-", ratio: "-", p: "-"}
	if d.OldN > 0 {
		r.old = metricValue(d.Metric, d.Old)
	}
	if d.NewN > 0 {
		r.new = metricValue(d.Metric, d.New)
	}
	if d.OldN > 0 && d.NewN > 0 && d.Old > 0 {
		r.value = fmt.Sprintf("%+.1f%%", d.Change*100)
	}
	if d.Tested == "" {
		return r
	}
	r.p = fmt.Sprintf("%.3f", d.P)
	mark := func(s string) string {
		if !d.Significant {
			return "~ " + s
		}
		return s
	}
	if d.Tested == vocab.TestedRatio {
		r.vs = fmt.Sprintf("%.2fx -> %.2fx", d.OldRatio, d.NewRatio)
		r.ratio = mark(fmt.Sprintf("%+.1f%%", d.RatioChange*100))
	}
	if r.value != "-" && !d.ValueSignificant {
		r.value = "~ " + r.value
	}
	return r
}

// baselineMoveLines calls out, one line a baseline transport, the
// scenarios whose baseline moved by itself (Comparison.BaselineMoved): a
// tuned h1 that gained 14% leaves h2's ratio alone even where h2 gained
// as much, so the value column is where each transport's own change is.
func baselineMoveLines(moved []results.Delta) []string {
	var protos []string
	byProto := map[string][]string{}
	for _, d := range moved {
		if byProto[d.Protocol] == nil {
			protos = append(protos, d.Protocol)
		}
		what := fmt.Sprintf("%s %+.0f%% (%s -> %s, p %.3f)", d.Scenario, d.Change*100, metricValue(d.Metric, d.Old), metricValue(d.Metric, d.New), d.P)
		if !d.Significant {
			what = fmt.Sprintf("%s ~ %+.0f%% (%s -> %s, within noise at %.2f)", d.Scenario, d.Change*100, metricValue(d.Metric, d.Old), metricValue(d.Metric, d.New), d.Alpha)
		}
		byProto[d.Protocol] = append(byProto[d.Protocol], what)
	}
	var out []string
	for _, p := range protos {
		out = append(out, fmt.Sprintf("%s itself moved: %s: ratios to it hide that; the value column is each transport's own change", p, strings.Join(byProto[p], ", ")))
	}
	return out
}
