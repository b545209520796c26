package analysis

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

func TestTrigammaInverse(t *testing.T) {
	if got := trigamma(1); math.Abs(got-math.Pi*math.Pi/6) > 1e-12 {
		t.Errorf("trigamma(1) = %v, want π²/6", got)
	}
	for _, x := range []float64{0.01, 0.5, 1, 3, 40, 1e4} {
		if got := trigammaInverse(trigamma(x)); math.Abs(got-x)/x > 1e-6 {
			t.Errorf("trigammaInverse(trigamma(%g)) = %g", x, got)
		}
	}
}

// TestFitPriorRecovers draws sample variances whose prior is known (each
// the prior's scale times an F(d, DF) draw, as Smyth's model has them)
// and finds it again.
func TestFitPriorRecovers(t *testing.T) {
	for _, want := range []Prior{{DF: 4, Var: 0.04}, {DF: 12, Var: 0.5}} {
		f := distuv.F{D1: 4, D2: want.DF, Src: rand.New(rand.NewPCG(1, 2))}
		vars, dfs := make([]float64, 4000), make([]float64, 4000)
		for i := range vars {
			vars[i], dfs[i] = want.Var*f.Rand(), 4
		}
		got := FitPrior(vars, dfs)
		if math.Abs(got.DF-want.DF)/want.DF > 0.25 || math.Abs(got.Var-want.Var)/want.Var > 0.1 {
			t.Errorf("FitPrior of draws from %+v = %+v", want, got)
		}
	}
}

func TestFitPriorEdges(t *testing.T) {
	if p := FitPrior([]float64{1, 2, 0, 3}, []float64{4, 4, 4, 4}); p.DF != 0 {
		t.Errorf("three variances above zero gave a prior %+v, want none", p)
	}
	// Variances closer than chi-square's spread: one variance, the
	// logarithms' mean corrected for its bias (Smyth's e).
	p := FitPrior([]float64{1, 1, 1, 1, 1}, []float64{4, 4, 4, 4, 4})
	want := math.Exp(math.Log(2) - mathext.Digamma(2))
	if !math.IsInf(p.DF, 1) || math.Abs(p.Var-want) > 1e-9 {
		t.Errorf("equal variances gave %+v, want infinite DF at %v", p, want)
	}
	if v, df := p.Moderate(9, 4); v != p.Var || !math.IsInf(df, 1) {
		t.Errorf("an infinite prior moderated 9 to %v with df %v", v, df)
	}
	if v, df := (Prior{DF: 4, Var: 1}).Moderate(3, 4); v != 2 || df != 8 {
		t.Errorf("Moderate(3, 4) by {4, 1} = %v, %v, want 2, 8", v, df)
	}
}

// TestModeratedP holds the test without a prior to the pooled two-sample
// t-test (scipy.stats.ttest_ind's 0.021312 for these samples) and with
// one to its wider degrees of freedom.
func TestModeratedP(t *testing.T) {
	a, b := []float64{1, 2, 3}, []float64{4, 5, 6}
	if got := ModeratedP(a, b, Prior{}); math.Abs(got-0.021312) > 1e-5 {
		t.Errorf("pooled p = %.6f, want 0.021312", got)
	}
	lo, hi := ModeratedInterval(a, b, Prior{}, 0.95)
	if half := 2.776445 * math.Sqrt(2.0/3); math.Abs(lo-(3-half)) > 1e-5 || math.Abs(hi-(3+half)) > 1e-5 {
		t.Errorf("pooled interval [%v, %v], want 3 ± %v", lo, hi, half)
	}
	// A prior of the same variance on 96 more degrees of freedom: t of
	// 3.674 on 100 degrees of freedom.
	want := 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: 100}.Survival(3/math.Sqrt(2.0/3))
	if got := ModeratedP(a, b, Prior{DF: 96, Var: 1}); math.Abs(got-want) > 1e-12 {
		t.Errorf("moderated p = %v, want %v", got, want)
	}
	if got := ModeratedP([]float64{1, 1}, []float64{1, 1}, Prior{}); got != 1 {
		t.Errorf("no spread, same mean: p %v, want 1", got)
	}
}
