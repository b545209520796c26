package report

import (
	"slices"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// The reads below look up what the analysis stored (results.Judged,
// results.Judgement) or a figure as recorded; none judges.

// medianRep is c's median repetition (results.Judged.MedianRepetition);
// the zero Repetition when none counts.
func medianRep(c *results.Cell) results.Repetition {
	if i := c.MedianRepetition; i > 0 && i <= len(c.Repetitions) {
		return c.Repetitions[i-1]
	}
	return results.Repetition{}
}

// serverCPU is r's server CPU per unit and whether it may be shown: it
// was read and the server's counts agreed with the client's.
func serverCPU(r results.Repetition) (float64, bool) {
	if r.ServerCPUPerUnit == nil || r.ServerUnreliable != "" {
		return 0, false
	}
	return *r.ServerCPUPerUnit, true
}

// downRate is the link's rate down as set, bits per second, or where none
// was set the calibration's TCP goodput.
func downRate(n *results.Net) float64 {
	if n.Down.RateBitsPerSecond > 0 {
		return n.Down.RateBitsPerSecond
	}
	return n.Calibration.DownGoodputBitsPerSecond
}

// sortedMedian is the middle of sorted values (the mean of the two middle
// ones for an even count).
func sortedMedian(v []float64) float64 {
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// openCells are the cells the analysis found still open.
func openCells(res *results.Results) []results.Precision {
	if res.Judgement == nil {
		return nil
	}
	return res.Judgement.Open
}

// precisionOf is the half-width the run was planned to.
func precisionOf(res *results.Results) float64 {
	if res.Judgement != nil && res.Judgement.Precision > 0 {
		return res.Judgement.Precision
	}
	return vocab.StableHalfWidth
}

// machineBound says the analysis marked c machine-bound.
func machineBound(c *results.Cell) bool { return slices.Contains(c.Marks, vocab.MarkMachineBound) }

// notRunText is n as a report lists it, with what would let it run: the
// command's flag for n.Field where flags names one, else the field, with
// n.Value or a placeholder.
func notRunText(n results.NotRun, flags flagFor) string {
	if n.Field == "" {
		return n.String()
	}
	name := n.Field
	if flags != nil {
		if f, ok := flags(n.Field); ok {
			name = f
		}
	}
	switch {
	case n.Value != "" && name == n.Field:
		return n.String() + " (" + name + "=" + n.Value + ")"
	case n.Value != "":
		return n.String() + " (" + name + " " + n.Value + ")"
	case name == n.Field:
		return n.String() + " (" + name + ")"
	}
	return n.String() + " (" + name + " NAME)"
}
