package analysis

import (
	"math"
	"testing"
)

// TestTQuantile975 holds the quantile to published values of Student's t
// (two-sided 95%), past the 30 degrees of freedom a table would stop at:
// above 30 the quantile is still above the normal's 1.96.
func TestTQuantile975(t *testing.T) {
	for _, tc := range []struct {
		df   int
		want float64
	}{{1, 12.7062}, {2, 4.3027}, {7, 2.3646}, {15, 2.1314}, {30, 2.0423}, {31, 2.0395}, {40, 2.0211}, {60, 2.0003}, {120, 1.9799}} {
		if got := TQuantile975(tc.df); math.Abs(got-tc.want) > 5e-4 {
			t.Errorf("TQuantile975(%d) = %.5f, want %.4f", tc.df, got, tc.want)
		}
	}
	if !math.IsInf(TQuantile975(0), 1) {
		t.Errorf("TQuantile975(0) = %v, want +Inf (no interval)", TQuantile975(0))
	}
}

func TestStudentAndWelch(t *testing.T) {
	for _, tc := range []struct{ t, df, p float64 }{
		{12.706, 1, 0.05}, {2.228, 10, 0.05}, {1.96, 1e6, 0.05}, {0, 5, 1},
	} {
		if got := studentTwoSided(tc.t, tc.df); math.Abs(got-tc.p) > 5e-4 {
			t.Errorf("P(|T|>=%g; df %g) = %.5f, want %.3f", tc.t, tc.df, got, tc.p)
		}
	}
	// t = -3.674 on 4 degrees of freedom.
	if got := WelchP([]float64{1, 2, 3}, []float64{4, 5, 6}); math.Abs(got-0.02131) > 1e-4 {
		t.Errorf("welch p %.5f, want 0.02131", got)
	}
	if WelchP([]float64{1, 1}, []float64{1, 1}) != 1 || WelchP([]float64{1, 1}, []float64{2, 2}) != 0 {
		t.Errorf("samples without spread")
	}
}
