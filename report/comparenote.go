package report

import (
	"fmt"

	"github.com/httpvs/httpvs/internal/vocab"
)

// compareRoundsNote says, after a fixed number of rounds a cell (--quick,
// --ci, --repeat), whether the fewest a measured cell got, lo, are enough
// for httpvs compare's test to gate this run against another.
func compareRoundsNote(lo int) string {
	if lo >= vocab.CompareMinRounds {
		return fmt.Sprintf(" (enough for httpvs compare's test, which needs %d)", vocab.CompareMinRounds)
	}
	return fmt.Sprintf(" (too few for httpvs compare's test, which needs %d: --ci)", vocab.CompareMinRounds)
}
