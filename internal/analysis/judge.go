package analysis

import (
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// Judge sets res's judgements: each cell's Findings, Bound, MainCause
// and Marks, and res.Judgement. It reads the cells' intervals
// (Cell.VsH1), which the measuring side sets round by round, and may be
// called again on results read back (merge, compare): it replaces what
// an earlier call set.
func Judge(res *results.Results) {
	Diagnose(res)
	Bounds(res)
	Conclude(res)
}

// Conclude sets what Judge concludes from the cells' findings as they
// stand (MainCause, Marks, res.Judgement), without diagnosing them anew:
// for results whose findings were set already.
func Conclude(res *results.Results) {
	j := &results.Judgement{}
	j.Floors = floors(res)
	base := res.Settings.BaselineProtocol()
	for i := range res.Cells {
		c := &res.Cells[i]
		c.Marks, c.MainCause = marks(res, c, j.Floors), ""
		if c.Protocol == base || c.VsBaseline == nil || c.VsBaseline.Pairs < 2 {
			continue
		}
		j.Cells++
		if decided(c.VsBaseline.Verdict) {
			j.Decided++
		}
	}
	sameRounds(res)
	j.Tuned = tunedRows(res)
	mainCauses(res, j)
	readings(res, j)
	res.Judgement = j
}

// decided says a verdict word answers the question: slower, faster or ≈.
func decided(word string) bool {
	return word == results.VerdictSlower || word == results.VerdictFaster || word == results.VerdictSimilar
}

// floors are the A/A cells per kind of work, with the cells each marks.
func floors(res *results.Results) []results.NoiseFloor {
	var out []results.NoiseFloor
	for _, n := range NoiseFloors(res) {
		f := results.NoiseFloor{Kind: n.Kind, Cells: n.Cells, FalseCalls: n.FalseCalls, Reach: n.Resolution}
		for i := range res.Cells {
			c := &res.Cells[i]
			if KindOf(c.Scenario, c.Metric) == n.Kind && WithinFloor(c, n) {
				f.Within = append(f.Within, c.Scenario+"/"+c.Protocol)
			}
		}
		out = append(out, f)
	}
	return out
}

// marks are the caveats on c's verdict: machine-bound (across a link, or
// by the diagnosis's own rule), within its kind's noise floor.
func marks(res *results.Results, c *results.Cell, floors []results.NoiseFloor) []string {
	var out []string
	if c.VsBaseline != nil && c.VsBaseline.Verdict != results.VerdictSimilar && (MachineBound(c, res) || hasRule(c, "machine-bound")) {
		out = append(out, vocab.MarkMachineBound)
	}
	name := c.Scenario + "/" + c.Protocol
	for _, f := range floors {
		for _, w := range f.Within {
			if w == name {
				out = append(out, vocab.MarkWithinFloor)
			}
		}
	}
	return out
}

func hasRule(c *results.Cell, rule string) bool {
	for _, f := range c.Findings {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

// Summarise sets every cell's summary and intervals from its repetitions
// (SummariseCells), then judges the run: for results made outside a
// run (tune's trials, tests).
func Summarise(res *results.Results) {
	SummariseCells(res)
	Judge(res)
}
