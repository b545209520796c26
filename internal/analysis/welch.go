// Package sampling is the statistics httpvs's verdicts are computed with:
// means, Student's t quantiles, Welch's test, medians. Package results
// holds the figures and the verdicts' types; this is the arithmetic.
package analysis

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// WelchP is Welch's t-test's two-sided p-value that samples a and b (two
// or more each) have the same mean. Two samples with no spread at all
// give 1 when their means agree and 0 otherwise.
func WelchP(a, b []float64) float64 {
	ma, mb := Mean(a), Mean(b)
	va, vb := Variance(a, ma)/float64(len(a)), Variance(b, mb)/float64(len(b))
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

// Variance is x's sample variance about m (n-1 in the denominator).
func Variance(x []float64, m float64) float64 {
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

// TQuantile975 is Student's t distribution's 97.5% quantile for df degrees
// of freedom (two-sided 95%), exact for any df (gonum's distuv); +Inf for
// df below 1, where there is no interval.
func TQuantile975(df int) float64 {
	if df < 1 {
		return math.Inf(1)
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(0.975)
}
