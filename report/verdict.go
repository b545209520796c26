package report

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// fullFixes are res's fixes in full, each distinct text once with its
// cells, for below the tables.
func fullFixes(res *results.Results) []string {
	base := res.Settings.BaselineProtocol()
	fixes := newFixList(res, base)
	for _, name := range res.ScenarioNames() {
		for _, p := range res.ProtocolNames(name) {
			fixes.add(res.Cell(name, p))
		}
	}
	_, full := fixes.lines()
	return full
}

// cellText is one transport's verdict in a scenario, in a run whose
// baseline is base (h1 when "") across net (nil: loopback): "0.26x
// [0.25, 0.27] slower", "≈ h1 0.97x [0.91, 1.03]", "1.20x [1.14, 1.26]
// faster", or why there is none.
func cellText(c *results.Cell, base string, net *results.Net) string {
	if why, none := unmeasured(c); none {
		return why
	}
	switch {
	case c.RatioToBaseline == 0:
		return "no " + cmp.Or(base, protoname.H1)
	case c.VsBaseline == nil:
		return fmt.Sprintf("%.2fx (no clean pair)", c.RatioToBaseline)
	}
	iv := *c.VsBaseline
	var text string
	switch {
	case iv.Verdict == results.VerdictUnknown:
		text = fmt.Sprintf("%.2fx (1 rep)", iv.Ratio)
	case iv.Verdict == results.VerdictSimilar:
		text = fmt.Sprintf("≈ %s %s", c.Baseline, boundsText(iv))
	case slices.Contains(c.Marks, vocab.MarkMachineBound):
		// Across a link that would hold the transports alike, a
		// difference this machine made is not the transport's.
		text = fmt.Sprintf("%s machine-bound", boundsText(iv))
	default:
		text = fmt.Sprintf("%s %s", boundsText(iv), iv.Verdict)
		if slices.Contains(c.Marks, vocab.MarkWithinFloor) {
			text += " " + floorMark // within its kind's noise floor (noiseLine)
		}
	}
	if c.Partial != "" {
		text += " (cut short)" // the run ended before its rounds were done
	}
	return text + linkMark(c, net)
}

// knobSetName is the knob set res started from, "unnamed" for results
// written before runs recorded one.
func knobSetName(res *results.Results) string {
	if n := res.Settings.Knobs.Name; n != "" {
		return n
	}
	return "unnamed"
}

// boundsText is a ratio with its 95% interval as bounds a reader can
// check against 1: "0.70x [0.48, 1.02]".
func boundsText(iv results.Interval) string {
	f := "%.2f"
	if iv.Ratio < 0.01 {
		f = "%.4f"
	}
	if iv.Pairs < 2 {
		return fmt.Sprintf(f+"x", iv.Ratio)
	}
	return fmt.Sprintf(f+"x ["+f+", "+f+"]", iv.Ratio, iv.Low, iv.High)
}
