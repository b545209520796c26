package results

import "math"

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
// freedom: the regularized incomplete beta I_x(df/2, 1/2) at
// x = df/(df+t^2).
func studentTwoSided(t, df float64) float64 {
	return incBeta(df/2, 0.5, df/(df+t*t))
}

// incBeta is the regularized incomplete beta function I_x(a, b), by its
// continued fraction (Numerical Recipes' betacf), to 1e-12.
func incBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	lga, _ := math.Lgamma(a)
	lgb, _ := math.Lgamma(b)
	lgab, _ := math.Lgamma(a + b)
	front := math.Exp(lgab - lga - lgb + a*math.Log(x) + b*math.Log(1-x))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(a, b, x) / a
	}
	return 1 - front*betaCF(b, a, 1-x)/b
}

func betaCF(a, b, x float64) float64 {
	const tiny, eps = 1e-300, 1e-12
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1.0; m <= 300; m++ {
		m2 := 2 * m
		aa := m * (b - m) * x / ((a + m2 - 1) * (a + m2))
		d, c = 1+aa*d, 1+aa/c
		d, c = 1/nonzero(d, tiny), nonzero(c, tiny)
		h *= d * c
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
		d, c = 1+aa*d, 1+aa/c
		d, c = 1/nonzero(d, tiny), nonzero(c, tiny)
		del := d * c
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}

func nonzero(v, tiny float64) float64 {
	if math.Abs(v) < tiny {
		return tiny
	}
	return v
}
