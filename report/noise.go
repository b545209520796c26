package report

import (
	"fmt"
	"strings"

	"github.com/httpvs/httpvs/internal/verdict"
	"github.com/httpvs/httpvs/results"
)

// noiseLine is the run's noise floor in words: each A/A cell (the
// baseline against itself, in the same rounds) with its interval and the
// verdict's own word, then per kind of work the smallest difference the
// run resolves, and the cells called slower or faster by less than their
// kind's floor (marked floorMark in the table); "" without A/A cells.
func noiseLine(res *results.Results) string {
	if len(res.AA) == 0 {
		return ""
	}
	b := res.Settings.BaselineProtocol()
	var parts []string
	for _, c := range res.AA {
		switch {
		case c.VsH1 == nil || c.VsH1.Pairs < 2:
			parts = append(parts, c.Scenario+" no interval (fewer than two rounds)")
		default:
			parts = append(parts, fmt.Sprintf("%s %s %s", c.Scenario, boundsText(*c.VsH1), aaWord(c.VsH1.Verdict, b)))
		}
	}
	line := fmt.Sprintf("noise floor (A/A: %s measured twice in the same rounds, one against the other): %s", b, strings.Join(parts, "; "))
	var resolves []string
	for _, n := range verdict.NoiseFloors(res) {
		switch {
		case n.Cells == 0:
		case n.FalseCalls > 0:
			resolves = append(resolves, fmt.Sprintf("%s: %d of %d A/A called a difference where there is none (this machine moved more between rounds than their spread showed): read %s verdicts within ±%.0f%% of 1 with care",
				kindPlural(n.Kind), n.FalseCalls, n.Cells, n.Kind, 100*n.Resolution))
		default:
			resolves = append(resolves, fmt.Sprintf("%s resolve differences beyond ±%.0f%%", kindPlural(n.Kind), 100*n.Resolution))
		}
	}
	if len(resolves) > 0 {
		line += "; " + strings.Join(resolves, "; ")
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

// withinFloor lists the cells verdict.WithinFloor marks, "scenario/transport".
func withinFloor(res *results.Results) []string {
	var out []string
	for i := range res.Cells {
		c := &res.Cells[i]
		if f, ok := verdict.FloorOf(res, c); ok && verdict.WithinFloor(c, f) {
			out = append(out, c.Scenario+"/"+c.Protocol)
		}
	}
	return out
}

// kindPlural names a kind of work's cells in a sentence.
func kindPlural(kind string) string {
	switch kind {
	case verdict.KindTransfer:
		return "transfers"
	case verdict.KindRequests:
		return "request loads"
	case verdict.KindGRPC:
		return "gRPC loads"
	case verdict.KindTimed:
		return "timed scenarios"
	}
	return kind
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
