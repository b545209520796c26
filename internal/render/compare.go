package render

import (
	"fmt"

	"github.com/httpvs/httpvs/internal/verdict"
)

// KnobsMovedBaseline says in one line that the runs' knob sets differ and
// set the baseline's own client too, so a baseline's move (BaselineMoves)
// is as much theirs as the code's; "" when the knob sets are alike or no
// baseline moved.
func KnobsMovedBaseline(ds []verdict.Delta, diffs []verdict.SettingDiff) string {
	moved := verdict.BaselineMoves(ds)
	if len(moved) == 0 {
		return ""
	}
	for _, d := range diffs {
		if d.Group == "knobs" {
			b := moved[0].Protocol
			return fmt.Sprintf("the runs used different knob sets (%s vs %s), which set %s's client too: %s's move may be the knobs', and every ratio to %s hides it", d.Old, d.New, b, b, b)
		}
	}
	return ""
}
