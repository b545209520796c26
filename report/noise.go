package report

import (
	"fmt"
	"strings"

	"github.com/httpvs/httpvs/results"
)

// noiseLine is the run's noise floor in words: each A/A cell (the
// baseline against itself, in the same rounds) with its interval, and
// the smallest difference the run resolves; "" without A/A cells.
func noiseLine(res *results.Results) string {
	if len(res.AA) == 0 {
		return ""
	}
	var parts []string
	for _, c := range res.AA {
		switch {
		case c.VsH1 == nil || c.VsH1.Pairs < 2:
			parts = append(parts, c.Scenario+" no interval (fewer than two rounds)")
		default:
			parts = append(parts, fmt.Sprintf("%s %s %s", c.Scenario, boundsText(*c.VsH1), aaWord(c.VsH1.Verdict)))
		}
	}
	b := res.Settings.BaselineProtocol()
	line := fmt.Sprintf("noise floor (A/A: %s measured twice in the same rounds, one against the other): %s", b, strings.Join(parts, "; "))
	n := res.NoiseFloor()
	switch {
	case n.Cells == 0:
	case n.FalseCalls > 0:
		line += fmt.Sprintf("; %d of %d called a difference where there is none: this machine moved more between rounds than their spread showed; read verdicts within ±%.0f%% of 1 with care", n.FalseCalls, n.Cells, 100*n.Resolution)
	default:
		line += fmt.Sprintf("; this run resolves differences beyond ±%.0f%%", 100*n.Resolution)
	}
	if p := res.Settings.Pin; p != nil {
		line += fmt.Sprintf(" (generator and server pinned to %s each, as the header says: ratios of one core's worth a side)", coresWord(len(p.ClientCPUs)))
	}
	return line
}

// aaWord is what an A/A verdict means.
func aaWord(verdict string) string {
	switch verdict {
	case results.VerdictSlower, results.VerdictFaster:
		return "(a false call: " + verdict + ")"
	}
	return "(≈, as it should be)"
}
