package results

import (
	"math"
	"testing"

	"github.com/httpvs/httpvs/stats"
)

func cellOf(values ...float64) *Cell {
	c := &Cell{}
	for _, v := range values {
		c.Repetitions = append(c.Repetitions, Repetition{Value: v})
	}
	return c
}

func TestRatioIntervalPairsRounds(t *testing.T) {
	h1 := cellOf(100, 200, 400)
	// Each round's ratio is 0.5 although the rounds differ fourfold: the
	// pairing takes the drift out.
	iv := ratioInterval(cellOf(50, 100, 200), h1)
	if iv.Pairs != 3 || math.Abs(iv.Ratio-0.5) > 1e-12 || math.Abs(iv.Low-0.5) > 1e-12 || iv.Verdict != VerdictSlower || !iv.Stable() {
		t.Fatalf("%+v", iv)
	}
	// Ratios 0.9, 1.1, 1.0: the interval holds 1.
	iv = ratioInterval(cellOf(90, 220, 400), h1)
	if iv.Verdict != VerdictSimilar || iv.Low >= 1 || iv.High <= 1 {
		t.Fatalf("%+v", iv)
	}
	// ln ratios 0.1, 0.2, 0.3: mean 0.2, sd 0.1, half-width t(2)*0.1/sqrt(3).
	iv = ratioInterval(cellOf(100*math.Exp(0.1), 200*math.Exp(0.2), 400*math.Exp(0.3)), h1)
	half := 4.302652729749464 * 0.1 / math.Sqrt(3)
	if math.Abs(iv.Low-math.Exp(0.2-half)) > 1e-9 || math.Abs(iv.High-math.Exp(0.2+half)) > 1e-9 || iv.Verdict != VerdictSimilar {
		t.Fatalf("%+v, want %v..%v, similar", iv, math.Exp(0.2-half), math.Exp(0.2+half))
	}
	if iv.Stable() {
		t.Fatalf("half-width %v called stable", iv.HalfWidth())
	}
	// ln ratios 0.18, 0.2, 0.22: sd 0.02, the interval clear of 1.
	iv = ratioInterval(cellOf(100*math.Exp(0.18), 200*math.Exp(0.2), 400*math.Exp(0.22)), h1)
	if iv.Verdict != VerdictFaster || !iv.Stable() {
		t.Fatalf("%+v", iv)
	}
}

// TestNegligibleDifferenceIsSimilar: 0.99x known to ±0.1% excludes 1 but
// is no difference to act on; 0.97x known as well is slower.
func TestNegligibleDifferenceIsSimilar(t *testing.T) {
	h1 := cellOf(100, 100, 100)
	if iv := ratioInterval(cellOf(99, 99.05, 98.95), h1); iv.Verdict != VerdictSimilar || iv.High >= 1 {
		t.Fatalf("%+v: want similar although below 1", iv)
	}
	if iv := ratioInterval(cellOf(97, 97.05, 96.95), h1); iv.Verdict != VerdictSlower {
		t.Fatalf("%+v: want slower", iv)
	}
}

func TestRatioIntervalLeavesOutFailedRounds(t *testing.T) {
	h1 := cellOf(100, 100, 100)
	c := cellOf(50, 10, 50)
	c.Repetitions[1].Errors = stats.ErrorCounts{Total: 1, Reset: 1}
	iv := ratioInterval(c, h1)
	if iv.Pairs != 2 || iv.Ratio != 0.5 {
		t.Fatalf("%+v", iv)
	}
	h1.Repetitions[0].Interrupted = true
	if iv = ratioInterval(c, h1); iv.Pairs != 1 || iv.Verdict != VerdictUnknown || iv.Stable() {
		t.Fatalf("one pair: %+v", iv)
	}
}

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
