package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/results"
)

// SettingsDiffer warns in one line that two runs used different
// settings, naming each (group old vs new), so that a change may be
// theirs rather than the code's; "" when none differ.
func SettingsDiffer(diffs []results.SettingDiff) string {
	if len(diffs) == 0 {
		return ""
	}
	parts := make([]string, len(diffs))
	for i, d := range diffs {
		parts[i] = fmt.Sprintf("%s %s vs %s", d.Group, orNone(d.Old), orNone(d.New))
	}
	return "warning: the runs used different settings, so a change may come from them rather than the code: " + strings.Join(parts, "; ")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// Compare prints compare's text of two runs: their cells' deltas
// (report.Deltas), the between-run margin their tests allowed for
// (analysis.MarginLine) and, when the knob sets that differ moved the
// baseline too, the line that says so (KnobsMovedBaseline).
func Compare(w io.Writer, c results.Comparison) error {
	if err := report.Deltas(w, c); err != nil {
		return err
	}
	if anyRatioTested(c.Cells) {
		fmt.Fprintln(w, analysis.MarginLine(c.Margin))
	}
	if line := KnobsMovedBaseline(c.BaselineMoved, c.SettingsDiffer); line != "" {
		fmt.Fprintln(w, line)
	}
	return nil
}

// KnobsMovedBaseline says in one line that the runs' knob sets differ and
// set the baseline's own client too, so a baseline's move (BaselineMoves)
// is as much theirs as the code's; "" when the knob sets are alike or no
// baseline moved.
func KnobsMovedBaseline(moved []results.Delta, diffs []results.SettingDiff) string {
	if len(moved) == 0 {
		return ""
	}
	for _, d := range diffs {
		if d.Group == "knobs" {
			b := moved[0].Protocol
			return fmt.Sprintf("the runs used different knob sets (%s vs %s), which set %s's client too: %s's move may be the knobs', and every ratio to %s hides it", d.Old, d.New, b, b, b)
		}
	}
	return ""
}
