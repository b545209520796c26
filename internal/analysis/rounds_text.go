package analysis

import (
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// RoundsBySpread is Settings.Rounds when rounds past Repeat were planned
// for each cell once, from the spread of its first Repeat rounds alone
// (Stein's two-stage procedure: the fewest rounds expected to bring its
// interval within StableHalfWidth), never from where its ratio lay
// relative to 1 nor from the rounds added since: the verdict does not
// decide when sampling stops, so a 95% interval keeps its meaning
// (Results.AA measures how often it calls a difference where there is
// none).
const RoundsBySpread = "planned from the first rounds' spread"

// PrecisionOf is the half-width the run's rounds were planned to when
// planned for precision: Precision, or StableHalfWidth when unset.
func PrecisionOf(s results.Settings) float64 {
	if s.Precision > 0 {
		return s.Precision
	}
	return StableHalfWidth
}

// RoundsUntilSettled is Settings.Rounds across Go versions: rounds were
// added to a scenario until each of its intervals was within
// StableHalfWidth; the intervals are Sequential's, which hold however the
// rounds stop.
const RoundsUntilSettled = "added to a scenario until its intervals were within ±10%"

// RoundsToOpen is Settings.Rounds when rounds past Repeat went to the
// cells whose verdict was still open, the closest to deciding first, a
// cell stopping once decided, and then, once none was open, to the
// widest intervals (Settings.PrecisionRounds): its interval is
// Sequential's, which holds at every look together, so neither stopping
// on the verdict nor measuring past it costs its 95%.
const RoundsToOpen = "to the cells whose verdict was open until decided, then to the widest intervals"

// NoisySpread is the spread ((max-min)/median) above which a cell is
// flagged as noisy: 10%.
const NoisySpread = vocab.NoisySpread
