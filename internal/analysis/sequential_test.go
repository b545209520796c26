package analysis

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/httpvs/httpvs/results"
	"gonum.org/v1/gonum/stat/distuv"
)

// TestSequentialBoundaries checks the numerical integration against
// published boundaries: five equally spaced looks, the O'Brien-Fleming
// type function spending 2.5% a side (gsDesign's sfLDOF, two-sided 5%):
// 4.877, 3.357, 2.680, 2.290, 2.031. And a single look spends all of
// alpha: Student's t's 97.5% quantile.
func TestSequentialBoundaries(t *testing.T) {
	perSide := func(alpha, t float64) float64 {
		z := distuv.UnitNormal.Quantile(1 - alpha/4)
		return 4 - 4*distuv.UnitNormal.CDF(z/math.Sqrt(t))
	}
	got := boundariesBy(1, 5, 0.05, perSide)
	for i, want := range []float64{4.877, 3.357, 2.680, 2.290, 2.031} {
		if math.Abs(got[i]-want) > 0.001 {
			t.Errorf("look %d: boundary %.4f, want %.3f", i+1, got[i], want)
		}
	}
	logs := []float64{0.1, -0.2, 0.05, 0.3, -0.1, 0.0}
	if a, b := sequentialInterval(logs, 6, 6), LogInterval(logs); a != b {
		t.Errorf("one look: %+v, want the fixed interval %+v", a, b)
	}
	// Looks after rounds 4 to 16: FirstLookAlpha at the first, then
	// Pocock's nearly level spending: each look a little more than the
	// one before, none past 1.5% (a fixed interval at one look spends 5%).
	l := sequentialLevels(4, 16, SequentialAlpha)
	if len(l) != 13 || math.Abs(l[0]-FirstLookAlpha) > 1e-9 {
		t.Fatalf("levels %v: want 13, %v first", l, FirstLookAlpha)
	}
	for i := 1; i < len(l); i++ {
		if l[i] < l[i-1] || l[i] > 0.015 {
			t.Errorf("levels %v: look %d spends %.4f, want from %.4f to 1.5%%", l, i+4, l[i], l[i-1])
		}
	}
}

// TestSequentialHoldsItsLevel runs the default run's procedure on A/A
// cells, whose rounds have no difference to find: looks after rounds
// first to 16 (4, a default run's first stage; 3, a first stage a budget
// cut; 6), the cell stopping at the first look whose interval
// decides (slower, faster or ≈), or at a look drawn at random (the
// budget ran out), or at 16. A call of slower or faster is false: at most
// 5.5% of cells (5% nominal, with the simulation's own error), under
// normal rounds, Student's t with 3 degrees of freedom, and a contaminated
// normal (one round in ten four times as spread). It also bounds the
// worst stopping rule, one that never stops on ≈ and looks until a call
// or the last look: the intervals hold at every look together, so it
// misses 5%, within three of the simulation's standard errors. Each
// look's interval is the intersection of the looks' so far
// (sequentialInterval).
func TestSequentialHoldsItsLevel(t *testing.T) {
	trials := 4000
	if testing.Short() {
		trials = 2000
	}
	const (
		last = 16
		sd   = 0.15
	)
	rng := rand.New(rand.NewPCG(52, 47840))
	draws := map[string]func() float64{
		"normal": rng.NormFloat64,
		"t(3)": func() float64 {
			var chi float64
			for range 3 {
				z := rng.NormFloat64()
				chi += z * z
			}
			return rng.NormFloat64() / math.Sqrt(chi/3) / math.Sqrt(3) // unit variance
		},
		"contaminated": func() float64 {
			if rng.Float64() < 0.1 {
				return 4 * rng.NormFloat64()
			}
			return rng.NormFloat64()
		},
	}
	for _, first := range []int{4, 3, 6} {
		// One round's spread of 1 gives each look's log half-width over
		// the sample's standard deviation.
		half := make([]float64, last+1)
		for n := first; n <= last; n++ {
			half[n] = sequentialHalf(1, n, first, last)
		}
		for _, name := range []string{"normal", "t(3)", "contaminated"} {
			var calls, worst, stopped, decided int
			for range trials {
				logs := make([]float64, last)
				for i := range logs {
					logs[i] = sd * draws[name]()
				}
				o := lookAA(logs, half, first, first+rng.IntN(last-first+1))
				calls, worst, stopped, decided = calls+o.call, worst+o.worst, stopped+o.early, decided+o.decided
			}
			rate, worstRate := float64(calls)/float64(trials), float64(worst)/float64(trials)
			t.Logf("first look %d, %s rounds: %.2f%% false calls (worst stopping rule %.2f%%); %d of %d decided, %d stopped before round %d",
				first, name, 100*rate, 100*worstRate, decided, trials, stopped, last)
			if stopped < trials/2 {
				t.Errorf("%s: %d of %d cells stopped early: the simulation does not exercise stopping", name, stopped, trials)
			}
			if rate > 0.055 {
				t.Errorf("first look %d, %s rounds: %.2f%% false calls; want at most 5.5%%", first, name, 100*rate)
			}
			// The worst rule misses exactly 5% under normal rounds: three
			// of the simulation's standard errors above it.
			if most := 0.05 + 3*math.Sqrt(0.05*0.95/float64(trials)); worstRate > most {
				t.Errorf("first look %d, %s rounds: %.2f%% false calls under the worst stopping rule; want at most %.2f%%", first, name, 100*worstRate, 100*most)
			}
		}
	}
	// The looks above are sequentialInterval's: the intersection of each
	// look's interval, never wider than the last look's.
	logs := []float64{0.1, -0.2, 0.05, 0.3, -0.1, 0.0, 0.2, -0.05}
	iv := sequentialInterval(logs, 6, 16)
	lo, hi := math.Inf(-1), math.Inf(1)
	for n := 6; n <= 8; n++ {
		m := Mean(logs[:n])
		h := sequentialHalf(1, n, 6, 16) * math.Sqrt(Variance(logs[:n], m))
		lo, hi = math.Max(lo, m-h), math.Min(hi, m+h)
	}
	if math.Abs(math.Log(iv.Low)-lo) > 1e-12 || math.Abs(math.Log(iv.High)-hi) > 1e-12 {
		t.Errorf("sequentialInterval [%.6f, %.6f], want the looks' intersection [%.6f, %.6f]", math.Log(iv.Low), math.Log(iv.High), lo, hi)
	}
}

// aaOutcome is one simulated A/A cell: a call where it stopped, a call at
// some look (the worst stopping rule), stopped before its last look,
// decided where it stopped (1 or 0 each).
type aaOutcome struct{ call, worst, early, decided int }

// lookAA looks at logs after each round from first to len(logs), half[n]
// being the look's log half-width over the spread, each interval the
// intersection of the looks' so far (as sequentialInterval), stopping at
// the first decided verdict or at round budget.
func lookAA(logs, half []float64, first, budget int) aaOutcome {
	var o aaOutcome
	stop := false
	lo, hi := math.Inf(-1), math.Inf(1)
	for n := first; n <= len(logs); n++ {
		m := Mean(logs[:n])
		h := half[n] * math.Sqrt(Variance(logs[:n], m))
		lo, hi = math.Max(lo, m-h), math.Min(hi, m+h)
		l, u := lo, hi
		if m < l || m > u {
			l, u = m-h, m+h
		}
		v := judged(results.Interval{Ratio: math.Exp(m), Low: math.Exp(l), High: math.Exp(u), Pairs: n}).Verdict
		call := v == results.VerdictSlower || v == results.VerdictFaster
		if call {
			o.worst = 1
		}
		if !stop && (v != results.VerdictUndetermined || n == budget) {
			stop = true
			if call {
				o.call = 1
			}
			if v != results.VerdictUndetermined {
				o.decided = 1
			}
			if n < len(logs) {
				o.early = 1
			}
		}
	}
	return o
}

// TestRoundsToDecide: a cell far from 1 needs fewer rounds than one near
// the edge of deciding; one whose last look cannot decide gets 0 and a
// gap above 1, a wider one a larger gap.
func TestRoundsToDecide(t *testing.T) {
	far, _ := RoundsToDecide(math.Log(0.5), 0.3, 6, 6, 16)
	near, _ := RoundsToDecide(math.Log(0.8), 0.3, 6, 6, 16)
	if far == 0 || near == 0 || far >= near {
		t.Errorf("rounds to decide 0.5x: %d, 0.8x: %d; want fewer for 0.5x, both within 16", far, near)
	}
	k1, g1 := RoundsToDecide(math.Log(0.9), 0.3, 6, 6, 16)
	k2, g2 := RoundsToDecide(math.Log(0.9), 0.5, 6, 6, 16)
	if k1 != 0 || k2 != 0 || g1 <= 1 || g2 <= g1 {
		t.Errorf("0.9x at spreads 0.3 and 0.5: %d (gap %.2f), %d (gap %.2f); want 0, 0 and gaps above 1, rising", k1, g1, k2, g2)
	}
	if n := sequentialRoundsFor(math.Log(0.9), 0.3, 6, 100); n <= 16 || n > 100 {
		t.Errorf("0.9x at spread 0.3: %d rounds would decide it, want past 16", n)
	}
}

// TestAdviceFollowsThePlan: "N rounds would do" follows the run's own
// rule. Under Sequential the open cells are the undetermined ones, and N
// is the --max-repeat whose last look decides the cell at its mean and
// spread; planned for precision, Stein's plan from the first stage (the
// first stage's t quantile, more rounds than Student's t over all of
// them would say).
func TestAdviceFollowsThePlan(t *testing.T) {
	mk := func(vals ...float64) results.Cell {
		var c results.Cell
		for i, v := range vals {
			c.Repetitions = append(c.Repetitions, results.Repetition{Round: i + 1, Value: v})
		}
		return c
	}
	h1 := mk(100, 100, 100, 100, 100, 100, 100, 100)
	h1.Scenario, h1.Protocol = "s", "h1"
	near := mk(65, 120, 70, 115, 66, 118, 72, 112) // about 0.9x, ±30%: undetermined
	near.Scenario, near.Protocol = "s", "h2c"
	far := mk(40, 50, 42, 48, 41, 49, 43, 47) // about 0.45x: slower
	far.Scenario, far.Protocol = "s", "h2"
	res := &results.Results{Settings: results.Settings{Baseline: "h1", Repeat: 4, MaxRepeat: 8,
		Sequential: &results.Sequential{Rule: SequentialRule, Alpha: SequentialAlpha, First: 4, Last: 8}}}
	res.Cells = []results.Cell{h1, near, far}
	for i := range res.Cells {
		res.Cells[i].FirstStage, res.Cells[i].LastLook = 4, 8
	}
	SummariseCells(res)
	if v := res.Cell("s", "h2").VsBaseline.Verdict; v != results.VerdictSlower {
		t.Fatalf("h2 %q, want slower", v)
	}
	limits := PrecisionLimits(res)
	if len(limits) != 1 || limits[0].Protocol != "h2c" {
		t.Fatalf("limits %+v: want h2c, the undetermined cell, alone", limits)
	}
	m, sd := LogSpread(PairedLogs(res.Cell("s", "h2c"), res.Cell("s", "h1")))
	if want := sequentialRoundsFor(m, sd, 4, 100); limits[0].Needed != want || want <= 8 {
		t.Fatalf("needed %d, want %d (past 8)", limits[0].Needed, want)
	}
	// Planned for precision: Stein's plan from the first 4 rounds.
	res.Settings.Sequential, res.Settings.Precision = nil, 0.10
	for i := range res.Cells {
		res.Cells[i].LastLook = 0
	}
	SummariseCells(res)
	var h2 bool
	for _, p := range PrecisionLimits(res) {
		if p.Protocol != "h2" {
			continue // h2c's spread asks for more than 100 either way
		}
		h2 = true
		c, base := res.Cell("s", p.Protocol), res.Cell("s", "h1")
		stage := RatioInterval(FirstRounds(c, 4), FirstRounds(base, 4))
		if want := SteinRounds(stage, 0.10, 100); p.Needed != want || want <= RoundsFor(pooledSpread(c, base), 0.10, 100) {
			t.Errorf("%s: needed %d, want Stein's %d, more than Student's t's %d", p.Protocol, p.Needed, want, RoundsFor(pooledSpread(c, base), 0.10, 100))
		}
	}
	if !h2 {
		t.Error("h2, wider than ±10%, not listed")
	}
}
