package diagnosis

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFixMovesRefusesNoise is the test of the tests: a fix with no effect
// (gains scattered about 1), or one that wins a single round of five by
// any margin (what passed before: any one of three pairs, 87.5% of the
// time for a no-op), fails; a fix that doubles the figure on a noisy
// machine passes; fewer than fixPairs rounds never pass.
func TestFixMovesRefusesNoise(t *testing.T) {
	for _, tc := range []struct {
		name  string
		gains []float64
		want  bool
	}{
		{"no-op", []float64{1.03, 0.97, 1.05, 0.96, 1.01}, false},
		{"no-op with one lucky round", []float64{0.98, 1.40, 0.97, 1.02, 0.99}, false},
		{"no-op drifting up a little", []float64{1.04, 1.05, 1.03, 1.06, 1.04}, false},
		{"a fix that doubles the figure", []float64{2.1, 1.7, 2.4, 1.9, 2.2}, true},
		{"a fix that hurts", []float64{0.6, 0.7, 0.65, 0.62, 0.68}, false},
		{"too few rounds", []float64{2.1, 1.7, 2.4, 1.9}, false},
	} {
		if _, got := fixMoves(tc.gains); got != tc.want {
			t.Errorf("%s %v: moves %v, want %v", tc.name, tc.gains, got, tc.want)
		}
	}
	// A no-op fix measured as noise, lognormal gains about 1: with a 20%
	// spread per round (far noisier than the paired cells here) it passes
	// about as often as the interval's one-sided 2.5% (3.5% allows for
	// the draw); with a 5% spread, minGain refuses it all but never.
	rng := rand.New(rand.NewPCG(37, 1))
	for _, c := range []struct{ sd, most float64 }{{0.2, 0.035}, {0.05, 0.001}} {
		passed := 0
		const trials = 2000
		for range trials {
			gains := make([]float64, fixPairs)
			for i := range gains {
				gains[i] = math.Exp(c.sd * rng.NormFloat64())
			}
			if _, ok := fixMoves(gains); ok {
				passed++
			}
		}
		rate := float64(passed) / trials
		t.Logf("spread %.0f%%: a no-op fix passed %.2f%% of %d trials", 100*c.sd, 100*rate, trials)
		if rate > c.most {
			t.Errorf("spread %.0f%%: a no-op fix passed %.1f%% of %d trials, want at most %.1f%%", 100*c.sd, 100*rate, trials, 100*c.most)
		}
	}
}
