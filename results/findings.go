package results

import (
	"cmp"
	"slices"
)

// Finding is one explanation of a cell's figures: what rule fired, the
// evidence (numbers from the cell), and the fix to try.
type Finding struct {
	Rule     string `json:"rule"`
	Evidence string `json:"evidence"`
	// Fix says what to change, in Go (the field and the value); it never
	// names a command's flags.
	Fix string `json:"fix"`
	// Knobs are the settings the fix changes, each a field path as
	// config.FieldError names them; Apply sets them on Options. Empty
	// when the fix is not a setting (the stack's own cost).
	Knobs []Knob `json:"knobs,omitempty"`
	// Flags is how the command that ran the matrix sets Knobs, e.g.
	// "--h2-max-frame 256Ki"; the command fills it, "" otherwise.
	Flags string `json:"flags,omitempty"`
}

// Knob is one setting a fix changes.
type Knob struct {
	// Field is the setting's Go field path: "Client.ReadSize",
	// "Server.HTTP2.MaxReceiveBufferPerStream", "Engine".
	Field string `json:"field"`
	// Value is what to set it to, as Apply reads it: a size such as
	// "256Ki" (bytes), a count, or an engine name.
	Value string `json:"value"`
}

// String is the finding in one line.
func (f Finding) String() string {
	if f.Flags != "" {
		return f.Evidence + "; " + f.Fix + " (" + f.Flags + ")"
	}
	return f.Evidence + "; " + f.Fix
}

// MedianRepetition returns the repetition, of those that count
// (Repetition.Counts), whose value is the cell's median (the lower middle
// one for an even count: a repetition, not a mean of two): the one whose
// other figures a report shows beside the median. The zero Repetition
// when none counts.
func MedianRepetition(c *Cell) Repetition {
	var done []Repetition
	for _, r := range c.Repetitions {
		if r.Counts() {
			done = append(done, r)
		}
	}
	if len(done) == 0 {
		return Repetition{}
	}
	slices.SortStableFunc(done, func(a, b Repetition) int { return cmp.Compare(a.Value, b.Value) })
	return done[(len(done)-1)/2]
}
