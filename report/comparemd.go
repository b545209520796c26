package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// CompareMarkdown writes the comparison of two runs c
// (experiment.Compare), as Markdown a pull request comment or a CI job
// summary renders: the gate's finding if c has one, then one table row per cell tested on
// its ratio to its run's baseline (old ratio, new ratio, the change with
// its interval, and the test's word), regressions first, then the
// baselines that moved, the settings that differ and the cells that
// could not be tested, a line each. The baselines' own cells are not
// rows: a move of theirs is a line, never a change of every ratio.
func CompareMarkdown(w io.Writer, c results.Comparison) error {
	p := &printer{w: w}
	fmt.Fprintf(p, "### httpvs compare: %s → %s\n\n", mdCode(c.Old), mdCode(c.New))
	if g := c.Gate; g != nil {
		verdictWord := "passed"
		if g.Failed {
			verdictWord = "FAILED"
		}
		fmt.Fprintf(p, "**Gate `--fail-on %s`: %s**: %s\n\n", g.FailOn, verdictWord, gateSummary(g, c.Cells))
	}
	if len(c.Partial) > 0 {
		fmt.Fprintf(p, "**Partial run**: %s\n\n", mdEscape([]string{strings.Join(c.Partial, ", ")})[0])
	}
	rows := compareRows(c)
	if len(rows) > 0 {
		fmt.Fprintln(p, "| cell | old | new | change (interval) | |")
		fmt.Fprintln(p, "|---|--:|--:|--:|---|")
		for _, d := range rows {
			fmt.Fprintln(p, compareRow(d))
		}
		fmt.Fprintln(p)
	}
	for _, line := range compareNotes(c) {
		fmt.Fprintf(p, "%s\n\n", line)
	}
	if len(rows) > 0 {
		fmt.Fprintf(p, "<sub>old, new: each cell's ratio to its run's baseline (geometric mean of its rounds' paired ratios; above 1 is faster). change: new/old - 1, with its interval at %s (holding for every cell tested at once). The word is a moderated t-test on the logarithms (each cell's spread drawn toward all the cells', as limma's), corrected for the cells tested (Holm) at %.2f; ~: not significant.</sub>\n", levelText(rows), rows[0].Alpha)
	}
	return p.err
}

// gateSummary is the gate's finding after its word: the failing cells
// named, or how many cells it tested.
func gateSummary(g *results.GateResult, ds []results.Delta) string {
	tested := 0
	for _, d := range ds {
		if d.Tested == vocab.TestedRatio {
			tested++
		}
	}
	if !g.Failed {
		return fmt.Sprintf("no cell of %d tested moved that way beyond its test.", tested)
	}
	names := make([]string, len(g.Failing))
	for i, d := range g.Failing {
		names[i] = d.Scenario + " " + d.Protocol
	}
	return fmt.Sprintf("%d of %d cells tested: %s.", len(g.Failing), tested, mdEscape([]string{strings.Join(names, ", ")})[0])
}

// compareRows are the cells with a ratio to a baseline in the order the
// table shows them: slower first (largest fall first), then faster, then
// those the test cannot tell from noise, then those it could not test.
func compareRows(c results.Comparison) []results.Delta {
	var rows []results.Delta
	for _, d := range c.Cells {
		if !d.Baseline && d.Tested != vocab.TestedValue {
			rows = append(rows, d)
		}
	}
	rank := func(d results.Delta) int {
		switch d.Direction {
		case results.CompareSlower:
			return 0
		case results.CompareFaster:
			return 1
		case "~":
			return 2
		}
		return 3
	}
	sort.SliceStable(rows, func(i, j int) bool {
		ri, rj := rank(rows[i]), rank(rows[j])
		if ri != rj {
			return ri < rj
		}
		if ri < 2 {
			return absf(rows[i].RatioChange) > absf(rows[j].RatioChange)
		}
		return false
	})
	return rows
}

// compareRow is one cell's row.
func compareRow(d results.Delta) string {
	cell := mdEscape([]string{d.Scenario + " " + d.Protocol})[0]
	ratio := func(r float64, n int) string {
		if n == 0 || r == 0 {
			return "–"
		}
		return fmt.Sprintf("%.2fx", r)
	}
	change, word := "–", "not tested"
	switch {
	case d.Tested == vocab.TestedRatio:
		change = fmt.Sprintf("%+.0f%% [%+.0f%%, %+.0f%%]", d.RatioChange*100, d.RatioChangeLow*100, d.RatioChangeHigh*100)
		word = d.Direction
		if word != "~" {
			word = "**" + word + "**"
		}
	case d.OldRatio > 0 && d.NewRatio > 0:
		change = fmt.Sprintf("%+.0f%%", d.RatioChange*100)
	}
	if d.Tested == "" && d.Note != "" {
		word = mdEscape([]string{"not tested: " + d.Note})[0]
	}
	return fmt.Sprintf("| %s | %s | %s | %s | %s |", cell, ratio(d.OldRatio, d.OldN), ratio(d.NewRatio, d.NewN), change, word)
}

// compareNotes are the lines under the table: each baseline that moved,
// the settings that differ, the cells not tested.
func compareNotes(c results.Comparison) []string {
	var out []string
	byProto := map[string][]string{}
	var protos []string
	for _, d := range c.BaselineMoved {
		if byProto[d.Protocol] == nil {
			protos = append(protos, d.Protocol)
		}
		what := fmt.Sprintf("%s %+.0f%% (%s → %s", d.Scenario, d.Change*100, metricValue(d.Metric, d.Old), metricValue(d.Metric, d.New))
		if !d.Significant {
			what += ", within noise"
		}
		byProto[d.Protocol] = append(byProto[d.Protocol], what+")")
	}
	for _, p := range protos {
		out = append(out, fmt.Sprintf("**The baseline moved**: %s itself: %s. Every ratio to it hides that; no cell fails for it.", p, mdEscape([]string{strings.Join(byProto[p], ", ")})[0]))
	}
	if len(c.SettingsDiffer) > 0 {
		parts := make([]string, len(c.SettingsDiffer))
		for i, d := range c.SettingsDiffer {
			parts[i] = fmt.Sprintf("%s `%s` → `%s`", d.Group, orNoneMD(d.Old), orNoneMD(d.New))
		}
		out = append(out, "**Settings that differ** (a change may be theirs, not the code's): "+strings.Join(parts, "; "))
	}
	if c.NotTestedReason != "" {
		out = append(out, mdEscape([]string{c.NotTestedReason})[0])
	}
	return out
}

// levelText is the intervals' level, as a percentage, from the first
// tested row; "no interval" when none was tested.
func levelText(rows []results.Delta) string {
	for _, d := range rows {
		if d.IntervalLevel > 0 {
			return fmt.Sprintf("%.2f%%", d.IntervalLevel*100)
		}
	}
	return "no level (no cell tested)"
}

// mdCode puts s in a code span, its backticks dropped.
func mdCode(s string) string { return "`" + strings.ReplaceAll(s, "`", "") + "`" }

func orNoneMD(s string) string {
	s = strings.ReplaceAll(s, "`", "")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	if s == "" {
		return "none"
	}
	return s
}

func absf(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
