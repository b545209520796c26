package experiment

import (
	"fmt"
	"strings"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// Compare compares two runs, named oldName and newName (their files,
// say), cell by cell: each cell's ratio to its run's baseline, tested
// round by round and corrected for the number of cells, the settings
// the runs did not share, the baselines that moved by themselves and the
// cells that could not be tested. With failOn (results.CompareSlower,
// CompareFaster or CompareChanged; "" for none) it also says which cells
// fail a gate on that word. report formats what it returns.
func Compare(oldName, newName string, oldRun, newRun *results.Results, failOn string) (results.Comparison, error) {
	if failOn != "" && !analysis.ValidFailOn(failOn) {
		return results.Comparison{}, fmt.Errorf("fail on %q: want %s", failOn, strings.Join(analysis.FailOnWords, ", "))
	}
	c := analysis.CompareRuns(oldName, newName, oldRun, newRun)
	if failOn != "" {
		analysis.SetGate(&c, failOn)
	}
	return c, nil
}
