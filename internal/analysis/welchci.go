package analysis

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// WelchInterval is the interval of mean(b) - mean(a) at confidence level
// (0.95: 95%) by Welch's t (the unequal variances and degrees of freedom
// WelchP uses), for samples of two or more each. Samples with no spread
// give the difference itself at both ends.
func WelchInterval(a, b []float64, level float64) (lo, hi float64) {
	ma, mb := Mean(a), Mean(b)
	va, vb := Variance(a, ma)/float64(len(a)), Variance(b, mb)/float64(len(b))
	diff, se2 := mb-ma, va+vb
	if se2 == 0 {
		return diff, diff
	}
	df := se2 * se2 / (va*va/float64(len(a)-1) + vb*vb/float64(len(b)-1))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(1 - (1-level)/2)
	half := t * math.Sqrt(se2)
	return diff - half, diff + half
}
