package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/httpvs/httpvs/results"
)

// Deltas writes two runs' cells side by side: old and new medians, and
// the change the test looked at: a cell's ratio to its run's baseline
// (rounds paired as the verdict pairs them), or the baseline's own value,
// with Welch's t-test's p-value corrected for the number of cells tested;
// "~" marks a change the runs cannot tell from noise.
func Deltas(w io.Writer, ds []results.Delta) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\ttransport\told\tnew\tvs baseline\tchange\tp\tn\t")
	var notes []string
	cellsByNote := map[string][]string{}
	tested := 0
	for _, d := range ds {
		old, new, vs, change, p := "-", "-", "", "-", "-"
		if d.OldN > 0 {
			old = Value(d.Metric, d.Old)
		}
		if d.NewN > 0 {
			new = Value(d.Metric, d.New)
		}
		if d.Tested == results.TestedRatio {
			vs = fmt.Sprintf("%.2fx -> %.2fx", d.OldRatio, d.NewRatio)
		}
		if d.Tested != "" {
			tested++
			c := d.Change
			if d.Tested == results.TestedRatio {
				c = d.RatioChange
			}
			change = fmt.Sprintf("%+.1f%%", c*100)
			if !d.Significant {
				change = "~ " + change
			}
			p = fmt.Sprintf("%.3f", d.P)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d+%d\t\n", d.Scenario, d.Protocol, old, new, vs, change, p, d.OldN, d.NewN)
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
	if tested > 0 {
		fmt.Fprintf(ew, "change: of the ratio to the baseline where there is one (each run's rounds paired as its verdict pairs them), else of the value; p: Welch's t-test on the logarithms, corrected for the %d cells tested (Holm); ~: not significant at %.2f\n", tested, ds[0].Alpha)
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
func untestable(d results.Delta) bool {
	return d.OldN == 0 || d.NewN == 0 || strings.HasPrefix(d.Note, "need >=")
}

// UntestedLine says in one line which cells of ds could not be tested for
// a difference, and why; "" when every cell could.
func UntestedLine(ds []results.Delta) string {
	u := results.CountUntested(ds)
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
