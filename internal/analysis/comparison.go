package analysis

import "github.com/httpvs/httpvs/results"

// CompareRuns compares oldRun with newRun, named oldName and newName:
// their cells (Compare), the settings they differ in, the partial ones,
// the baselines that moved and the untested cells, counted and said. Its
// SettingsDiffer, Partial and BaselineMoved are empty rather than nil, so
// that they encode as [] in JSON.
func CompareRuns(oldName, newName string, oldRun, newRun *results.Results) results.Comparison {
	c := results.Comparison{Old: oldName, New: newName, Partial: []string{}, BaselineMoved: []results.Delta{}}
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
	c.Cells = Compare(oldRun, newRun)
	c.NotTested, c.NotTestedReason = countUntested(c.Cells), UntestedReason(c.Cells)
	if moved := BaselineMoves(c.Cells); moved != nil {
		c.BaselineMoved = moved
	}
	return c
}
