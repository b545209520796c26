package analysis

import (
	"fmt"
	"math"
	"strings"

	"github.com/httpvs/httpvs/results"
)

// What a gate fails on (Gate): a cell's ratio to its run's baseline that
// fell (slower), rose (faster), or either (changed), beyond its test.
const (
	FailSlower  = results.CompareSlower
	FailFaster  = results.CompareFaster
	FailChanged = results.CompareChanged
)

// FailOnWords are the words Gate takes, in the order help lists them.
var FailOnWords = []string{FailSlower, FailFaster, FailChanged}

// ValidFailOn says whether word is one of FailOnWords.
func ValidFailOn(word string) bool {
	for _, w := range FailOnWords {
		if w == word {
			return true
		}
	}
	return false
}

// direction is the word for how d's ratio to its baseline moved by its
// test: FailSlower or FailFaster when the change is significant, "~" when
// the test cannot tell it from noise, "" when the cell was not tested on
// its ratio (a baseline's own value, a cell on one side only).
func direction(d results.Delta) string {
	switch {
	case d.Tested != TestedRatio:
		return ""
	case !d.Significant:
		return "~"
	case d.RatioChange < 0:
		return FailSlower
	}
	return FailFaster
}

// Gate returns the cells of ds whose ratio to their run's baseline moved
// the way word says (FailOnWords), beyond their test corrected for the
// number of cells: what compare --fail-on fails on. A baseline's own
// move is never among them: it is a value, not a ratio (BaselineMoves),
// and it moves every ratio of its scenario alike.
func Gate(ds []results.Delta, word string) []results.Delta {
	var out []results.Delta
	for _, d := range ds {
		dir := d.Direction
		if dir == FailSlower || dir == FailFaster {
			if word == FailChanged || word == dir {
				out = append(out, d)
			}
		}
	}
	return out
}

// GateLine says in one line what Gate found for word: the cells that
// fail it, each with its ratios, or that none does, out of how many
// tested.
func GateLine(ds []results.Delta, word string) string {
	failing := Gate(ds, word)
	tested := 0
	for _, d := range ds {
		if d.Tested == TestedRatio {
			tested++
		}
	}
	if len(failing) == 0 {
		return fmt.Sprintf("gate --fail-on %s: passed: no cell's ratio to its baseline %s beyond its test (%d cells tested)", word, gateVerb(word), tested)
	}
	parts := make([]string, len(failing))
	for i, d := range failing {
		parts[i] = fmt.Sprintf("%s %s %.2fx -> %.2fx (%+.0f%%, p %.3f)", d.Scenario, d.Protocol, d.OldRatio, d.NewRatio, d.RatioChange*100, d.P)
	}
	return fmt.Sprintf("gate --fail-on %s: FAILED: %d of %d cells tested %s: %s", word, len(failing), tested, gateVerb(word), strings.Join(parts, "; "))
}

func gateVerb(word string) string {
	switch word {
	case FailSlower:
		return "got slower"
	case FailFaster:
		return "got faster"
	}
	return "changed"
}

// ratioChangeInterval sets d's interval of RatioChange from the paired
// log-ratios of each run, ol and nl: the moderated t's interval (the
// test's own, by prior, with margin's between-run variance) at the
// level that holds for all m tested cells at once (Bonferroni), so that
// an interval clear of 0 is one the corrected test would call.
func ratioChangeInterval(d *delta, ol, nl []float64, prior Prior, margin *results.BetweenRuns, m int) {
	if len(ol) < minCompare || len(nl) < minCompare || m < 1 {
		return
	}
	sd, df := kindSD(margin, d.Scenario, d.Metric)
	lo, hi := marginInterval(ol, nl, prior, 2*sd*sd, df, 1-d.Alpha/float64(m))
	d.RatioChangeLow, d.RatioChangeHigh = math.Exp(lo)-1, math.Exp(hi)-1
	d.IntervalLevel = 1 - d.Alpha/float64(m)
}

// SetGate sets c.Gate to what a gate failing on word finds in c.Cells.
func SetGate(c *results.Comparison, word string) {
	g := &results.GateResult{FailOn: word, Failing: Gate(c.Cells, word), Line: GateLine(c.Cells, word)}
	if g.Failing == nil {
		g.Failing = []results.Delta{}
	}
	g.Failed = len(g.Failing) > 0
	c.Gate = g
}
