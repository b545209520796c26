package tune

import (
	"math"

	"github.com/httpvs/httpvs/internal/analysis"
)

// pairedGain is the geometric mean of bests[i]/defs[i] with its 95%
// interval (analysis.LogInterval: Student's t on the logarithms) and the
// pairs it had; the interval is the estimate itself with fewer than two
// pairs.
func pairedGain(defs, bests []float64) (gain, low, high float64, pairs int) {
	var logs []float64
	for i := range min(len(defs), len(bests)) {
		if defs[i] > 0 && bests[i] > 0 {
			logs = append(logs, math.Log(bests[i]/defs[i]))
		}
	}
	iv := analysis.LogInterval(logs)
	if iv.Pairs < 2 {
		return iv.Ratio, iv.Ratio, iv.Ratio, iv.Pairs
	}
	return iv.Ratio, iv.Low, iv.High, iv.Pairs
}
