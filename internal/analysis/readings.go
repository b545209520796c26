package analysis

import (
	"cmp"
	"slices"

	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
)

// readings sets what renderers would otherwise derive from the figures:
// each cell's median repetition, stated ratio, summed link counters and
// class against its link; each reference cell's standing without Go; the
// run's precision, its open cells and its scenarios' descriptions.
func readings(res *results.Results, j *results.Judgement) {
	seen := map[string]bool{}
	for i := range res.Cells {
		c := &res.Cells[i]
		c.MedianRepetition = medianIndex(c)
		c.Ratio = Ratio(c)
		c.LinkTotal = CellLink(c)
		c.EmulatorBehind = EmulatorBehind(c, res.Settings.Net)
		for _, a := range c.Attribution {
			if a != nil {
				a.Summary = AttributionSummary(a, c.CPUUnit)
			}
		}
		if c.Bound != nil {
			c.Bound.Class = BoundClass(c.Bound)
		}
		if !seen[c.Scenario] {
			seen[c.Scenario] = true
			if sc, ok := plan.ScenarioOf(&res.Settings, c.Scenario); ok {
				j.Scenarios = append(j.Scenarios, results.ScenarioInfo{Name: sc.Name, Reproduces: sc.Reproduces, Description: sc.Description, Metric: sc.Metric})
			}
		}
	}
	for i := range res.References {
		res.References[i].WithoutGo = WithoutGo(&res.References[i])
	}
	j.Precision = PrecisionOf(res.Settings)
	j.Open = PrecisionLimits(res)
}

// medianIndex is the 1-based index of c's median repetition among those
// that count (Counts; the lower middle one for an even count), 0
// when none counts.
func medianIndex(c *results.Cell) int {
	var idx []int
	for i, r := range c.Repetitions {
		if Counts(r) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return 0
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(c.Repetitions[a].Value, c.Repetitions[b].Value) })
	return idx[(len(idx)-1)/2] + 1
}
