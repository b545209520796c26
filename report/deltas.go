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
		if d.Note != "" {
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
	for _, n := range notes {
		fmt.Fprintf(ew, "note: %s: %s\n", n, strings.Join(cellsByNote[n], ", "))
	}
	return ew.err
}
