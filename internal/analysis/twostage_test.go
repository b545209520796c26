package analysis

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestTwoStageHoldsItsLevel runs the rounds' procedure on A/A cells whose
// rounds have no difference to find: a first stage of five pairs, more
// rounds (up to 16) planned from its spread alone when it is wider than
// StableHalfWidth, then the verdict. The pooled interval calls a
// difference in more than 6% of the cells at a round spread of 15%; the
// two-stage interval in at most 5.5% (5% nominal, with the simulation's
// own error), under normal rounds and under heavy-tailed ones (one round
// in ten four times as spread).
func TestTwoStageHoldsItsLevel(t *testing.T) {
	const (
		trials = 4000
		first  = 5
		most   = 16
		sd     = 0.15
	)
	rng := rand.New(rand.NewPCG(36, 47840))
	draws := map[string]func() float64{
		"normal": rng.NormFloat64,
		"heavy-tailed": func() float64 {
			if rng.Float64() < 0.1 {
				return 4 * rng.NormFloat64()
			}
			return rng.NormFloat64()
		},
	}
	for _, name := range []string{"normal", "heavy-tailed"} {
		var pooled, twoStage, added int
		for range trials {
			logs := make([]float64, most)
			for i := range logs {
				logs[i] = sd * draws[name]()
			}
			n := first
			if stage := LogInterval(logs[:first]); !Stable(stage) {
				if n = SteinRounds(stage, StableHalfWidth, most); n == 0 {
					n = most
				}
				n = max(n, first)
			}
			if n > first {
				added++
			}
			if v := judged(LogInterval(logs[:n])).Verdict; v == results.VerdictSlower || v == results.VerdictFaster {
				pooled++
			}
			if v := judged(twoStageInterval(logs[:n], first)).Verdict; v == results.VerdictSlower || v == results.VerdictFaster {
				twoStage++
			}
		}
		pr, tr := float64(pooled)/trials, float64(twoStage)/trials
		t.Logf("%s: pooled %.2f%%, two-stage %.2f%% false calls; rounds added in %d of %d cells", name, 100*pr, 100*tr, added, trials)
		if added < trials/2 {
			t.Fatalf("%s: rounds added in %d of %d cells: the simulation does not exercise the second stage", name, added, trials)
		}
		if tr > 0.055 {
			t.Errorf("%s: the two-stage interval called a difference in %.2f%% of A/A cells, above 5%%", name, 100*tr)
		}
		if name == "normal" && pr <= 0.06 {
			t.Errorf("pooled interval: %.2f%% false calls; the simulation no longer shows why the two-stage one is needed", 100*pr)
		}
	}
}

// TestTwoStageInterval: with no pairs past the first stage it is the
// pooled interval; past it, never narrower than either the pooled one or
// Stein's (the first stage's spread at all the pairs), centred on the
// mean of all of them.
func TestTwoStageInterval(t *testing.T) {
	logs := []float64{0.30, -0.30, 0.25, -0.20, 0.02, 0.01, -0.01, 0.00, 0.02, -0.02}
	if got, want := twoStageInterval(logs[:5], 5), LogInterval(logs[:5]); got != want {
		t.Fatalf("no second stage: %+v, want %+v", got, want)
	}
	got, pooled, first := twoStageInterval(logs, 5), LogInterval(logs), LogInterval(logs[:5])
	stein := math.Log(first.High/first.Low) / 2 * math.Sqrt(5.0/10)
	if half := math.Log(got.High/got.Low) / 2; math.Abs(half-stein) > 1e-12 || half <= math.Log(pooled.High/pooled.Low)/2 {
		t.Fatalf("half-width %.4f, want Stein's %.4f (wider than the pooled %.4f)", half, stein, math.Log(pooled.High/pooled.Low)/2)
	}
	if got.Ratio != pooled.Ratio || got.Pairs != 10 {
		t.Fatalf("centre %v over %d pairs, want the mean of all: %v over 10", got.Ratio, got.Pairs, pooled.Ratio)
	}
	// A first stage narrower than the pooled spread leaves the pooled one.
	calm := append(append([]float64{}, logs[4:9]...), logs[:5]...)
	if got, want := twoStageInterval(calm, 5), LogInterval(calm); got != want {
		t.Fatalf("calm first stage: %+v, want the pooled %+v", got, want)
	}
}
