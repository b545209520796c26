package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/httpvs/httpvs/matrix"
)

// Deltas writes two runs' cells side by side: old and new medians, the
// change, and whether it is significant (Mann-Whitney U, as benchstat);
// "~" marks a change the repetitions cannot tell from noise.
func Deltas(w io.Writer, ds []matrix.Delta) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\ttransport\told\tnew\tchange\tp\tn\t")
	var notes []string
	cellsByNote := map[string][]string{}
	for _, d := range ds {
		old, new, change, p := "-", "-", "-", "-"
		if d.OldN > 0 {
			old = Value(d.Metric, d.Old)
		}
		if d.NewN > 0 {
			new = Value(d.Metric, d.New)
		}
		if d.OldN > 0 && d.NewN > 0 {
			change = fmt.Sprintf("%+.1f%%", d.Change*100)
			if !d.Significant {
				change = "~ " + change
			}
			p = fmt.Sprintf("%.3f", d.P)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d+%d\t\n", d.Scenario, d.Protocol, old, new, change, p, d.OldN, d.NewN)
		if d.Note != "" && !untestable(d) {
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
	if len(ds) > 0 {
		fmt.Fprintf(ew, "~: not significant at alpha %.2f (Mann-Whitney U test on the repetitions)\n", ds[0].Alpha)
	}
	if line := UntestedLine(ds); line != "" {
		fmt.Fprintln(ew, line)
	}
	for _, n := range notes {
		fmt.Fprintf(ew, "note: %s: %s\n", n, strings.Join(cellsByNote[n], ", "))
	}
	return ew.err
}

// untestable says whether d is one of the cells UntestedLine counts.
func untestable(d matrix.Delta) bool {
	return d.OldN == 0 || d.NewN == 0 || strings.HasPrefix(d.Note, "need >=")
}

// UntestedLine says in one line which cells of ds could not be tested for
// a difference, and why; "" when every cell could.
func UntestedLine(ds []matrix.Delta) string {
	u := matrix.CountUntested(ds)
	if u.Count() == 0 {
		return ""
	}
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{u.OnlyOld, "only in old"}, {u.OnlyNew, "only in new"}, {u.Neither, "measured in neither"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	if u.TooFew > 0 {
		need := ""
		for _, d := range ds {
			var n int
			if _, err := fmt.Sscanf(d.Note, "need >= %d", &n); err == nil {
				need = fmt.Sprintf(", the test needs %d", n)
				break
			}
		}
		parts = append(parts, fmt.Sprintf("%d with too few repetitions (fewest %d%s: run both with more)", u.TooFew, u.MinReps, need))
	}
	return fmt.Sprintf("not tested: %d of %d cells: %s", u.Count(), len(ds), strings.Join(parts, ", "))
}
