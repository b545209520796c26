package report

import (
	"fmt"
	"io"

	"github.com/httpvs/httpvs/results"
)

// Attribution writes, for each cell of res whose extra CPU was attributed
// (Cell.Attribution), where it went: per side, the areas and the few
// functions that grew over the baseline's, per the cell's CPU unit. It
// writes nothing, and returns false, when no cell was attributed.
func Attribution(w io.Writer, res *results.Results) bool {
	any := false
	for i := range res.Cells {
		c := &res.Cells[i]
		if len(c.Attribution) == 0 {
			continue
		}
		if !any {
			fmt.Fprintf(w, "where the extra CPU went (profiles in rounds of their own, per unit of work, over %s's):\n", res.Settings.BaselineProtocol())
			any = true
		}
		fmt.Fprintf(w, "  %s/%s (%s):\n", c.Scenario, c.Protocol, estimateText(c))
		for _, s := range c.Attribution {
			fmt.Fprintf(w, "    %s\n", s.Summary(c.CPUUnit))
		}
	}
	return any
}
