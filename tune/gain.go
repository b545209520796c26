package tune

import "math"

// pairedGain is the geometric mean of bests[i]/defs[i] with its 95%
// interval (Student's t on the logarithms) and the pairs it had; the
// interval is the estimate itself with fewer than two pairs.
func pairedGain(defs, bests []float64) (gain, low, high float64, pairs int) {
	var logs []float64
	for i := range min(len(defs), len(bests)) {
		if defs[i] > 0 && bests[i] > 0 {
			logs = append(logs, math.Log(bests[i]/defs[i]))
		}
	}
	n := len(logs)
	if n == 0 {
		return 0, 0, 0, 0
	}
	m := mean(logs)
	if n < 2 {
		return math.Exp(m), math.Exp(m), math.Exp(m), n
	}
	var ss float64
	for _, l := range logs {
		ss += (l - m) * (l - m)
	}
	half := t975[min(n-1, len(t975))-1] * math.Sqrt(ss/float64(n-1)/float64(n))
	return math.Exp(m), math.Exp(m - half), math.Exp(m + half), n
}

// t975 is Student's t 97.5% quantile for 1 to 9 degrees of freedom (two
// sided 95%); more degrees use the last.
var t975 = []float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262}

// mean is v's arithmetic mean; 0 when v is empty.
func mean(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
