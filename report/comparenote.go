package report

import (
	"fmt"

	"github.com/httpvs/httpvs/results"
)

// compareRoundsNote says, after a fixed number of rounds a cell (--quick,
// --ci, --repeat), whether the fewest a measured cell got, lo, are enough
// for httpvs compare's test to gate this run against another.
func compareRoundsNote(lo int) string {
	if lo >= results.CompareMinRounds {
		return fmt.Sprintf(" (enough for httpvs compare's test, which needs %d)", results.CompareMinRounds)
	}
	return fmt.Sprintf(" (too few for httpvs compare's test, which needs %d: --ci)", results.CompareMinRounds)
}
