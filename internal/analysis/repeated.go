package analysis

import (
	"math"

	"github.com/httpvs/httpvs/results"
)

// PrecisionFloor is the geometric half-width (GeoHalfWidth) below which
// a decided cell gets no more rounds for its precision: once every cell
// is decided, or has had its last look, a run's remaining budget goes to
// the widest intervals until each is within it.
const PrecisionFloor = StableHalfWidth

// GeoHalfWidth is iv's geometric half-width, sqrt(High/Low) - 1: how far
// a ratio's interval reaches either way in the ratio's own terms ([0.5,
// 2] is ±100%, not ±75%). +Inf when there is no interval.
func GeoHalfWidth(iv results.Interval) float64 {
	if iv.Pairs < 2 || iv.Low <= 0 || iv.High <= 0 {
		return math.Inf(1)
	}
	return math.Sqrt(iv.High/iv.Low) - 1
}

// sequentialJudged is sequentialInterval of logs at its last look, with
// the verdict word of the last look that decided one: the last look's
// own when it decides, else the latest earlier look's that did. The
// looks' intervals are repeated confidence intervals (Jennison and
// Turnbull, "Group Sequential Methods", ch. 9): they cover the true ratio
// at every look together with the design's chance, so a word a look
// decided holds whatever the looks after it show; measuring a decided
// cell further for its precision does not reopen it. (The intersection
// of the looks keeps a decided word decided; only the last look's own
// interval, taken where the intersection leaves out the mean, can reach
// back over 1 or past the ±Matters band.)
func sequentialJudged(logs []float64, first, last int) results.Interval {
	iv := judged(sequentialInterval(logs, first, last))
	if iv.Verdict != results.VerdictUndetermined {
		return iv
	}
	for k := len(logs) - 1; k >= max(first, 2); k-- {
		if w := judged(sequentialInterval(logs[:k], first, last)).Verdict; w != results.VerdictUndetermined {
			iv.Verdict = w
			return iv
		}
	}
	return iv
}
