package analysis

import (
	"github.com/httpvs/httpvs/results"
)

// RoundPair is one round's repetition of a cell beside its baseline's.
type RoundPair struct {
	// Round is the round both ran in.
	Round int
	// Cell and Base are the two repetitions.
	Cell, Base results.Repetition
}

// PairRounds pairs c's repetitions with base's by round (Repetition.Round,
// or the i-th repetition of each for results without rounds), over the
// rounds where both count (Counts), in c's order: what every
// paired figure (the verdict's interval, a toolchain's change of ratio)
// is computed from.
func PairRounds(c, base *results.Cell) []RoundPair {
	byRound := map[int]results.Repetition{}
	for i, b := range base.Repetitions {
		byRound[roundOf(b, i)] = b
	}
	var out []RoundPair
	for i, a := range c.Repetitions {
		b, ok := byRound[roundOf(a, i)]
		if !ok || !Counts(a) || !Counts(b) {
			continue
		}
		out = append(out, RoundPair{Round: roundOf(a, i), Cell: a, Base: b})
	}
	return out
}
