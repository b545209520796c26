package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/results"
)

// firstScreen is the first screen of a run: every scenario's transports
// against h1, each with its interval and main cause, then each fix once.
type firstScreen struct {
	head  []string          // "", then the transports other than h1
	rows  [][]string        // the scenario, then a cell per transport
	grid  [][]*results.Cell // per row, the cell behind each transport's text (nil: none)
	whys  []string          // per row: the main causes, "" if none
	fixes []string          // each cause once, short, with the cells it applies to
	// fullFixes are the fixes in full, each distinct text once with its
	// cells, for below the tables.
	fullFixes []string
	// variants explains the variant rows ("download:tuned"), "" if none.
	variants string
	// noise is the run's noise floor from its A/A cells, "" if none.
	noise string
	// refs explains the "without Go" rows, "" if there are none.
	refs string
	// stable and cells count the cells with an interval within
	// results.StableHalfWidth, of the cells compared with the baseline.
	stable, cells int
	// base is the transport the others are compared with
	// (results.Settings.BaselineProtocol).
	base string
	// net is the emulated link the run crossed; nil on loopback.
	net *results.Net
	// res is the run laid out.
	res *results.Results
	// link holds, across an emulated link, each cell against the link's
	// bound, the cells that depart from it unexplained, and the when in
	// words (linkLines); nil on loopback.
	link []string
}

// newVerdict lays out res's verdict.
func newVerdict(res *results.Results) firstScreen {
	v := firstScreen{base: res.Settings.BaselineProtocol(), net: res.Settings.Net, res: res}
	cols := map[string]bool{}
	var protos []string
	for _, name := range res.ScenarioNames() {
		for _, p := range res.ProtocolNames(name) {
			if p != v.base && !cols[p] {
				cols[p] = true
				protos = append(protos, p)
			}
		}
	}
	v.head = append([]string{""}, protos...)
	fixes := newFixList(res, v.base)
	for _, name := range res.ScenarioNames() {
		row := []string{name}
		var cells []*results.Cell
		var whys []string
		for _, p := range protos {
			c := res.Cell(name, p)
			row = append(row, v.cell(c))
			cells = append(cells, c)
			if c != nil && len(c.Findings) > 0 {
				whys = append(whys, p+" "+c.Findings[0].Rule)
			}
		}
		for _, p := range res.ProtocolNames(name) {
			fixes.add(res.Cell(name, p))
		}
		v.rows = append(v.rows, row)
		v.grid = append(v.grid, cells)
		v.whys = append(v.whys, strings.Join(whys, "; "))
		if ref := withoutGoRow(res, name, protos); ref != nil {
			v.rows = append(v.rows, ref)
			v.grid = append(v.grid, make([]*results.Cell, len(protos)))
			v.whys = append(v.whys, "")
			v.refs = withoutGoNote
		}
	}
	v.fixes, v.fullFixes = fixes.lines()
	v.variants = variantsLine(res)
	v.noise = noiseLine(res)
	v.link = linkLines(res)
	return v
}

// variantsLine says what the variant rows are, from the knob set that
// made them.
func variantsLine(res *results.Results) string {
	a := res.Settings.Alongside
	if a == nil || !slices.ContainsFunc(res.Cells, func(c results.Cell) bool { return c.Knobs != "" }) {
		return "" // no variant row was measured (the user's requests alone)
	}
	var knobs []string
	for _, k := range a.Knobs {
		if strings.HasPrefix(k.Field, "Client.") {
			knobs = append(knobs, k.Field+"="+k.Value)
		}
	}
	return fmt.Sprintf("rows ending %s%s: the same transfer with the client knobs of %s (%s), measured in the same run: what the best known settings reach beside Go as shipped",
		results.VariantSep, a.Name, a.Name, strings.Join(knobs, ", "))
}

// cell is one transport's verdict in a scenario: "0.26x [0.25, 0.27]
// slower", "≈ h1 0.97x [0.91, 1.03]", "1.20x [1.14, 1.26] faster", or why
// there is none.
func (v *firstScreen) cell(c *results.Cell) string {
	if why, none := unmeasured(c); none {
		return why
	}
	switch {
	case c.RatioToBaseline == 0:
		return "no " + v.baseName()
	case c.VsBaseline == nil:
		return fmt.Sprintf("%.2fx (no clean pair)", c.RatioToBaseline)
	}
	iv := *c.VsBaseline
	v.cells++
	if halfWidth(iv) <= results.StableHalfWidth {
		v.stable++
	}
	var text string
	switch {
	case iv.Verdict == results.VerdictUnknown:
		text = fmt.Sprintf("%.2fx (1 rep)", iv.Ratio)
	case iv.Verdict == results.VerdictSimilar:
		text = fmt.Sprintf("≈ %s %s", c.Baseline, boundsText(iv))
	case slices.Contains(c.Marks, results.MarkMachineBound):
		// Across a link that would hold the transports alike, a
		// difference this machine made is not the transport's.
		text = fmt.Sprintf("%s machine-bound", boundsText(iv))
	default:
		text = fmt.Sprintf("%s %s", boundsText(iv), iv.Verdict)
		if slices.Contains(c.Marks, results.MarkWithinFloor) {
			text += " " + floorMark // within its kind's noise floor (noiseLine)
		}
	}
	if c.Partial != "" {
		text += " (cut short)" // the run ended before its rounds were done
	}
	return text + linkMark(c, v.net)
}

// baseName is the verdict's baseline, h1 when none was set.
func (v *firstScreen) baseName() string {
	if v.base == "" {
		return protoname.H1
	}
	return v.base
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
