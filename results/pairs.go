package results

// Counts reports whether r is a measurement the cell's figures use: its
// median, min and max, its median repetition, the rounds paired for its
// interval, and the diagnosis' bounds. It is one when r ran to its end
// (an interrupted repetition measured the interrupt), no request or
// transfer in it failed, and it read above zero. A repetition with a
// failure measured other work than a clean one (a refused connection is
// fast, a timeout stalls a slot) and its failures are in Cell.Errors,
// which the errors finding reports; zero means nothing finished, a time
// or rate that was not measured, and has no ratio.
func (r Repetition) Counts() bool {
	return !r.Interrupted && r.Errors.Total == 0 && r.Value > 0
}

// RoundPair is one round's repetition of a cell beside its baseline's.
type RoundPair struct {
	// Round is the round both ran in.
	Round int
	// Cell and Base are the two repetitions.
	Cell, Base Repetition
}

// PairRounds pairs c's repetitions with base's by round (Repetition.Round,
// or the i-th repetition of each for results without rounds), over the
// rounds where both count (Repetition.Counts), in c's order: what every
// paired figure (the verdict's interval, a toolchain's change of ratio)
// is computed from.
func PairRounds(c, base *Cell) []RoundPair {
	byRound := map[int]Repetition{}
	for i, b := range base.Repetitions {
		byRound[roundOf(b, i)] = b
	}
	var out []RoundPair
	for i, a := range c.Repetitions {
		b, ok := byRound[roundOf(a, i)]
		if !ok || !a.Counts() || !b.Counts() {
			continue
		}
		out = append(out, RoundPair{Round: roundOf(a, i), Cell: a, Base: b})
	}
	return out
}
