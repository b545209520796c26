package report

import (
	"fmt"
	"strings"

	"github.com/httpvs/httpvs/results"
)

// noiseLine is the run's noise floor in words: each A/A cell (the
// baseline against itself, in the same rounds) with its interval and the
// verdict's own word, then per kind of work the smallest difference the
// A/A called a difference (one in twenty is expected by chance), and the
// cells called slower or faster by less than their kind's floor (marked floorMark in the table); "" without A/A cells.
func noiseLine(res *results.Results) string {
	if len(res.AA) == 0 {
		return ""
	}
	b := res.Settings.BaselineProtocol()
	var parts []string
	for _, c := range res.AA {
		switch {
		case c.VsBaseline == nil || c.VsBaseline.Pairs < 2:
			parts = append(parts, c.Scenario+" no interval (fewer than two rounds)")
		default:
			parts = append(parts, fmt.Sprintf("%s %s %s", c.Scenario, boundsText(*c.VsBaseline), aaWord(c.VsBaseline.Verdict, b)))
		}
	}
	line := fmt.Sprintf("noise floor (A/A: %s measured twice in the same rounds, one against the other): %s", b, strings.Join(parts, "; "))
	if n := falseCalls(res); n != "" {
		line += "; " + n
	}
	if within := withinFloor(res); len(within) > 0 {
		line += fmt.Sprintf("; %s: called slower or faster by less than its kind's A/A reached with no difference to find: %s", floorMark, strings.Join(within, ", "))
	}
	if p := res.Settings.Pin; p != nil {
		line += fmt.Sprintf(" (generator and server pinned to %s each, as the header says: ratios of one core's worth a side)", coresWord(len(p.ClientCPUs)))
	}
	return line
}

// floorMark follows a verdict called slower or faster by less than its
// kind's noise floor (verdict.WithinFloor).
const floorMark = "~"

// withinFloor lists the cells the analysis marked within their kind's
// noise floor, "scenario/transport".
func withinFloor(res *results.Results) []string {
	if res.Judgement == nil {
		return nil
	}
	var out []string
	for _, f := range res.Judgement.Floors {
		out = append(out, f.Within...)
	}
	return out
}

// aaWord is an A/A verdict in the verdict's own words, with what it
// means where there is no difference to find.
func aaWord(verdict, base string) string {
	switch verdict {
	case results.VerdictSlower, results.VerdictFaster:
		return verdict + " (a false call)"
	case results.VerdictSimilar:
		return "≈ " + base + " (as it should be)"
	case results.VerdictUndetermined:
		return "undetermined (too wide to tell; not a false call)"
	}
	return "(one round: no verdict)"
}

// falseCalls says how many A/A cells called a difference where there is
// none, from the analysis's floors; "" when none did.
func falseCalls(res *results.Results) string {
	if res.Judgement == nil {
		return ""
	}
	calls, cells := 0, 0
	for _, f := range res.Judgement.Floors {
		calls, cells = calls+f.FalseCalls, cells+f.Cells
	}
	if calls == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d A/A cells called a difference where there is none (at 95%%, about one in twenty is expected by chance)", calls, cells)
}
