package results

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// welchP is Welch's t-test's two-sided p-value that samples a and b (two
// or more each) have the same mean. Two samples with no spread at all
// give 1 when their means agree and 0 otherwise.
func welchP(a, b []float64) float64 {
	ma, mb := Mean(a), Mean(b)
	va, vb := variance(a, ma)/float64(len(a)), variance(b, mb)/float64(len(b))
	se2 := va + vb
	if se2 == 0 {
		if ma == mb {
			return 1
		}
		return 0
	}
	t := (ma - mb) / math.Sqrt(se2)
	df := se2 * se2 / (va*va/float64(len(a)-1) + vb*vb/float64(len(b)-1))
	return studentTwoSided(t, df)
}

// Mean is x's arithmetic mean; 0 when x is empty.
func Mean(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// variance is x's sample variance about m (n-1 in the denominator).
func variance(x []float64, m float64) float64 {
	var ss float64
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	return ss / float64(len(x)-1)
}

// studentTwoSided is P(|T| >= |t|) for Student's t with df degrees of
// freedom (gonum's distuv).
func studentTwoSided(t, df float64) float64 {
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(math.Abs(t))
}
