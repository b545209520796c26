package analysis

import "github.com/httpvs/httpvs/results"

// CompareRuns compares oldRun with newRun, named oldName and newName:
// their cells (CompareMargin, allowing for the built-in between-run
// spread, DefaultBetweenRuns), the settings they differ in, the partial ones,
// the baselines that moved and the untested cells, counted and said. Its
// SettingsDiffer, Partial and BaselineMoved are empty rather than nil, so
// that they encode as [] in JSON.
func CompareRuns(oldName, newName string, oldRun, newRun *results.Results) results.Comparison {
	return CompareRunsMargin(oldName, newName, oldRun, newRun, DefaultBetweenRuns())
}

// CompareRunsMargin is CompareRuns with each ratio cell's test allowing
// for margin (CompareMargin; nil for none), which its Margin says.
func CompareRunsMargin(oldName, newName string, oldRun, newRun *results.Results, margin *results.BetweenRuns) results.Comparison {
	c := results.Comparison{Old: oldName, New: newName, Partial: []string{}, BaselineMoved: []results.Delta{}, Margin: margin}
	c.SettingsDiffer = diffSettings(oldRun, newRun)
	if c.SettingsDiffer == nil {
		c.SettingsDiffer = []results.SettingDiff{}
	}
	if oldRun.Partial {
		c.Partial = append(c.Partial, oldName)
	}
	if newRun.Partial {
		c.Partial = append(c.Partial, newName)
	}
	c.Cells = CompareMargin(oldRun, newRun, margin)
	c.NotTested, c.NotTestedReason = countUntested(c.Cells), UntestedReason(c.Cells)
	if moved := BaselineMoves(c.Cells); moved != nil {
		c.BaselineMoved = moved
	}
	return c
}
