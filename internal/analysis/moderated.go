package analysis

import (
	"math"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// Prior is what many tests' sample variances say about each one's true
// variance: a scaled inverse chi-square with DF degrees of freedom and
// scale Var (Smyth, "Linear models and empirical Bayes methods for
// assessing differential expression in microarray experiments", 2004;
// limma's squeezeVar). A zero DF is no prior: each test keeps its own
// variance; an infinite DF says the variances are one.
type Prior struct {
	DF  float64
	Var float64
}

// minPriorTests is the fewest variances FitPrior estimates a prior from:
// with fewer, their spread says little about one another.
const minPriorTests = 4

// FitPrior estimates the prior of sample variances vars, each with the
// degrees of freedom in dfs (above 0), by Smyth's moments of their
// logarithms. Variances of zero are left out; with fewer than four left
// it returns no prior (DF zero).
func FitPrior(vars, dfs []float64) Prior {
	var e, tri []float64
	for i, v := range vars {
		if v <= 0 || dfs[i] <= 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			continue
		}
		h := dfs[i] / 2
		e = append(e, math.Log(v)-mathext.Digamma(h)+math.Log(h))
		tri = append(tri, trigamma(h))
	}
	if len(e) < minPriorTests {
		return Prior{}
	}
	mean := Mean(e)
	spread := Variance(e, mean) - Mean(tri)
	if spread <= 0 {
		return Prior{DF: math.Inf(1), Var: math.Exp(mean)}
	}
	d0 := 2 * trigammaInverse(spread)
	return Prior{DF: d0, Var: math.Exp(mean + mathext.Digamma(d0/2) - math.Log(d0/2))}
}

// Moderate is a test's variance v with df degrees of freedom drawn
// toward the prior: (DF·Var + df·v) / (DF + df), with DF + df degrees of
// freedom; v and df themselves without a prior.
func (p Prior) Moderate(v, df float64) (float64, float64) {
	switch {
	case p.DF == 0:
		return v, df
	case math.IsInf(p.DF, 1):
		return p.Var, math.Inf(1)
	}
	return (p.DF*p.Var + df*v) / (p.DF + df), p.DF + df
}

// PooledDiff is mean(b) - mean(a) for samples a and b (two or more
// each), their pooled variance and its degrees of freedom
// (len(a)+len(b)-2): what ModeratedP and ModeratedInterval test.
func PooledDiff(a, b []float64) (diff, v, df float64) {
	ma, mb := Mean(a), Mean(b)
	df = float64(len(a) + len(b) - 2)
	v = (Variance(a, ma)*float64(len(a)-1) + Variance(b, mb)*float64(len(b)-1)) / df
	return mb - ma, v, df
}

// ModeratedP is the two-sided p-value that samples a and b have the same
// mean by Student's t on their pooled variance moderated by prior
// (Smyth's moderated t); without a prior, the pooled two-sample t-test.
func ModeratedP(a, b []float64, prior Prior) float64 {
	return marginP(a, b, prior, 0, 0)
}

// ModeratedInterval is the interval of mean(b) - mean(a) at confidence
// level by the same t as ModeratedP.
func ModeratedInterval(a, b []float64, prior Prior, level float64) (lo, hi float64) {
	return marginInterval(a, b, prior, 0, 0, level)
}

// marginT is ModeratedP's t with extra, a variance of mean(b) - mean(a)
// beyond what the samples' spread says (two runs' between-run variance),
// estimated with extraDF degrees of freedom: the difference, its
// standard error from the sum of the two variances, and the degrees of
// freedom of that sum by Welch and Satterthwaite's approximation. With
// no extra variance it is ModeratedP's t.
func marginT(a, b []float64, prior Prior, extra, extraDF float64) (diff, se, df float64) {
	diff, v, dfw := PooledDiff(a, b)
	v, dfw = prior.Moderate(v, dfw)
	w := v * (1/float64(len(a)) + 1/float64(len(b)))
	if extra <= 0 {
		return diff, math.Sqrt(w), dfw
	}
	den := 0.0
	if !math.IsInf(dfw, 1) {
		den += w * w / dfw
	}
	if !math.IsInf(extraDF, 1) {
		den += extra * extra / extraDF
	}
	df = math.Inf(1)
	if den > 0 {
		df = (w + extra) * (w + extra) / den
	}
	return diff, math.Sqrt(w + extra), df
}

// marginP is the two-sided p-value of marginT.
func marginP(a, b []float64, prior Prior, extra, extraDF float64) float64 {
	diff, se, df := marginT(a, b, prior, extra, extraDF)
	if se == 0 {
		if diff == 0 {
			return 1
		}
		return 0
	}
	return 2 * tSurvival(math.Abs(diff)/se, df)
}

// marginInterval is the interval of mean(b) - mean(a) at confidence
// level by marginT.
func marginInterval(a, b []float64, prior Prior, extra, extraDF, level float64) (lo, hi float64) {
	diff, se, df := marginT(a, b, prior, extra, extraDF)
	half := tQuantile(1-(1-level)/2, df) * se
	return diff - half, diff + half
}

func tSurvival(t, df float64) float64 {
	if math.IsInf(df, 1) {
		return distuv.UnitNormal.Survival(t)
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(t)
}

func tQuantile(p, df float64) float64 {
	if math.IsInf(df, 1) {
		return distuv.UnitNormal.Quantile(p)
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(p)
}

// trigamma is the derivative of the digamma function: the Hurwitz zeta
// function ζ(2, x).
func trigamma(x float64) float64 { return mathext.Zeta(2, x) }

// trigammaInverse solves trigamma(x) = y for x > 0 by Newton's method
// from Smyth's starting point (limma's trigammaInverse).
func trigammaInverse(y float64) float64 {
	switch {
	case y > 1e7:
		return 1 / math.Sqrt(y)
	case y < 1e-6:
		return 1 / y
	}
	x := 0.5 + 1/y
	for range 50 {
		tri := trigamma(x)
		dif := tri * (1 - tri/y) / (-2 * mathext.Zeta(3, x)) // ψ''(x) = -2ζ(3, x)
		x += dif
		if -dif/x < 1e-8 {
			break
		}
	}
	return x
}
