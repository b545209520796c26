package verdict

import "github.com/httpvs/httpvs/results"

// Comparison is two runs compared cell by cell, with what a reader needs
// to trust the comparison: the settings the runs did not share, which of
// them were partial, which baselines moved and which cells could not be
// tested. It is what httpvs compare --json prints.
type Comparison struct {
	// Old and New name the runs compared, such as their files.
	Old string `json:"old"`
	New string `json:"new"`
	// SettingsDiffer are the groups of settings the runs did not share
	// (DiffSettings); empty, not nil, when they were run alike.
	SettingsDiffer []SettingDiff `json:"settings_differ"`
	// Partial names the runs (Old, New or both) that are partial; empty,
	// not nil, when neither is.
	Partial []string `json:"partial"`
	// Cells are the runs' cells side by side (Compare).
	Cells []Delta `json:"cells"`
	// BaselineMoved are the baseline cells whose own value moved
	// (BaselineMoves): the ratios to them hide it. Empty, not nil, when
	// none did.
	BaselineMoved []Delta `json:"baseline_moved"`
	// NotTested counts the cells that could not be tested (CountUntested).
	NotTested Untested `json:"not_tested"`
	// NotTestedReason says NotTested in the one line the text output
	// prints (UntestedReason); "" when every cell was tested.
	NotTestedReason string `json:"not_tested_reason,omitempty"`
	// Gate is what compare --fail-on found (SetGate); nil without one.
	Gate *GateResult `json:"gate,omitempty"`
}

// CompareRuns compares oldRun with newRun, named oldName and newName:
// their cells (Compare), the settings they differ in, the partial ones,
// the baselines that moved and the untested cells, counted and said. Its
// SettingsDiffer, Partial and BaselineMoved are empty rather than nil, so
// that they encode as [] in JSON.
func CompareRuns(oldName, newName string, oldRun, newRun *results.Results) Comparison {
	c := Comparison{Old: oldName, New: newName, Partial: []string{}, BaselineMoved: []Delta{}}
	c.SettingsDiffer = diffSettings(oldRun, newRun)
	if c.SettingsDiffer == nil {
		c.SettingsDiffer = []SettingDiff{}
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
