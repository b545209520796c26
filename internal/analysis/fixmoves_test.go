package analysis_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// The judges of the measured fix checks (fixes_measured_test.go, built
// with -tags measured): pure functions of the rounds' figures, tested
// here on made-up rounds.

// fixPairs is the fewest rounds a fix check pairs.
const fixPairs = 5

// minGain is the least gain, a geometric mean over the rounds, a fix must
// show beside an interval above 1: a knob whose whole effect is under 10%
// is not worth a finding. A check whose fix promises more holds it, and
// its control, to a higher bar (armRounds.bar).
const minGain = 1.10

// fixMoves reports whether the paired gains (after over before, one a
// round) show a fix moving its figure: at least fixPairs of them, their
// 95% interval (LogInterval, the verdict's) above 1 and their
// mean at least bar. A control, a knob with no effect, is held to the
// same test at the same level and bar: it must not pass it.
func fixMoves(gains []float64, bar float64) (results.Interval, bool) {
	logs := make([]float64, 0, len(gains))
	for _, g := range gains {
		if g > 0 {
			logs = append(logs, math.Log(g))
		}
	}
	iv := analysis.LogInterval(logs)
	return iv, iv.Pairs >= fixPairs && iv.Low > 1 && iv.Ratio >= bar
}

// armRounds is one check's rounds: arm 0 is the setup every other arm is
// measured against (the broken one); gains[k][r] is arm k's figure over
// arm 0's in round r (gains[0] is unused), and orders[r] the arms in the
// order round r measured them.
type armRounds struct {
	names  []string // short: "broken", "control", "fix", one for each arm
	what   []string // what each arm is (the knob the control sets, the fix's knobs)
	gains  [][]float64
	orders [][]int
	// bar is the least gain the fix promises, minGain when zero: the
	// fixes and the control are held to it alike.
	bar float64
}

// judgeArms holds each fix arm to fixMoves and the control arm to not
// passing it, at the same level. Each failure names the arm and lists
// its rounds, each with the order the arms ran in, so that a reader can
// tell a bias of order (the gains split by which arm ran first) from a
// defect.
func judgeArms(logf func(string, ...any), ar armRounds, control int, fixes []int) []string {
	bar := cmp.Or(ar.bar, minGain)
	civ, controlMoved := fixMoves(ar.gains[control], bar)
	logf("%s %s: %.2fx [%.2f, %.2f] (95%%); %s", ar.names[control], ar.what[control], civ.Ratio, civ.Low, civ.High, ar.orderEffect(control))
	if !controlMoved && (civ.Low > 1 || civ.High < 1) {
		// Below the bar, so no fix could have passed on it; shown, since
		// it is how unequally this machine measured identical arms.
		logf("%s: the arms measured %.2fx apart with nothing between them, under the %.2fx bar", ar.names[control], civ.Ratio, bar)
	}
	var failed []string
	for _, k := range fixes {
		iv, moved := fixMoves(ar.gains[k], bar)
		logf("%s %s: %.2fx [%.2f, %.2f] (95%%); %s", ar.names[k], ar.what[k], iv.Ratio, iv.Low, iv.High, ar.orderEffect(k))
		if !moved {
			failed = append(failed, fmt.Sprintf("%s %s did not move the figure: %.2fx [%.2f, %.2f] at 95%% over %d rounds, want the interval above 1 and at least %.2fx; rounds %s",
				ar.names[k], ar.what[k], iv.Ratio, iv.Low, iv.High, iv.Pairs, bar, ar.list(k)))
		}
	}
	if controlMoved {
		failed = append(failed, fmt.Sprintf("%s %s, a knob with no effect, passed as a fix: %.2fx [%.2f, %.2f] at 95%% over %d rounds: the arms are measured unequally; rounds %s",
			ar.names[control], ar.what[control], civ.Ratio, civ.Low, civ.High, civ.Pairs, ar.list(control)))
	}
	return failed
}

// list is arm k's rounds: "1 (broken, control, fix) 1.02, 2 ...".
func (ar armRounds) list(k int) string {
	var b strings.Builder
	for r, g := range ar.gains[k] {
		if r > 0 {
			b.WriteString(", ")
		}
		names := make([]string, 0, len(ar.orders[r]))
		for _, a := range ar.orders[r] {
			names = append(names, ar.names[a])
		}
		fmt.Fprintf(&b, "%d (%s) %.2f", r+1, strings.Join(names, ", "), g)
	}
	return b.String()
}

// orderEffect is arm k's gain in the rounds where it ran before arm 0
// and in those where it ran after: the two differ by the bias of order.
func (ar armRounds) orderEffect(k int) string {
	var before, after []float64
	for r, g := range ar.gains[k] {
		if g <= 0 {
			continue
		}
		if slices.Index(ar.orders[r], k) < slices.Index(ar.orders[r], 0) {
			before = append(before, math.Log(g))
		} else {
			after = append(after, math.Log(g))
		}
	}
	gm := func(l []float64) float64 {
		if len(l) == 0 {
			return math.NaN()
		}
		s := 0.0
		for _, v := range l {
			s += v
		}
		return math.Exp(s / float64(len(l)))
	}
	return fmt.Sprintf("run before %s %.2fx (%d rounds), after %.2fx (%d)", ar.names[0], gm(before), len(before), gm(after), len(after))
}

// balancedOrders is the order of n arms in each of at least rounds
// rounds, rounded up to whole blocks of 2n: a block is a Williams square
// (row r: r, r+1, r-1, r+2, r-2, ... mod n) and the same rows reversed,
// its arms relabelled at random and its rows shuffled, so that within a
// block every arm runs in every position twice, before each other arm
// exactly n times, and right after each other arm exactly twice (ABBA
// for two arms). Whatever one position or the arm just before does to a
// measurement lands on every arm alike. (Rotations of one order, used
// before, had each arm follow the same one or two arms in every round:
// a carry-over from those landed on it alone.)
func balancedOrders(rng *rand.Rand, n, rounds int) [][]int {
	seq := make([]int, n) // 0, 1, n-1, 2, n-2, ...
	for i := 1; i < n; i++ {
		if i%2 == 1 {
			seq[i] = (i + 1) / 2
		} else {
			seq[i] = n - i/2
		}
	}
	var orders [][]int
	for len(orders) < rounds {
		label := rng.Perm(n)
		var block [][]int
		for r := range n {
			row := make([]int, n)
			for i, v := range seq {
				row[i] = label[(v+r)%n]
			}
			rev := slices.Clone(row)
			slices.Reverse(rev)
			block = append(block, row, rev)
		}
		rng.Shuffle(len(block), func(i, j int) { block[i], block[j] = block[j], block[i] })
		orders = append(orders, block...)
	}
	return orders
}

// TestFixMovesRefusesNoise is the test of the tests: a fix with no effect
// (gains scattered about 1), or one that wins a single round of five by
// any margin, fails; a fix that doubles the figure on a noisy machine
// passes; fewer than fixPairs rounds never pass.
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
		if _, got := fixMoves(tc.gains, minGain); got != tc.want {
			t.Errorf("%s %v: moves %v, want %v", tc.name, tc.gains, got, tc.want)
		}
	}
	// A no-op measured as noise, lognormal gains about 1: with a 20%
	// spread per round it passes about as often as the interval's
	// one-sided 2.5% (3.5% allows for the draw); with a 5% spread,
	// minGain refuses it all but never.
	rng := rand.New(rand.NewPCG(37, 1))
	for _, c := range []struct{ sd, most float64 }{{0.2, 0.035}, {0.05, 0.001}} {
		passed := 0
		const trials = 2000
		for range trials {
			gains := make([]float64, fixPairs)
			for i := range gains {
				gains[i] = math.Exp(c.sd * rng.NormFloat64())
			}
			if _, ok := fixMoves(gains, minGain); ok {
				passed++
			}
		}
		rate := float64(passed) / trials
		t.Logf("spread %.0f%%: a no-op passed %.2f%% of %d trials", 100*c.sd, 100*rate, trials)
		if rate > c.most {
			t.Errorf("spread %.0f%%: a no-op passed %.1f%% of %d trials, want at most %.1f%%", 100*c.sd, 100*rate, trials, 100*c.most)
		}
	}
}

// TestJudgeArms: a fix that moves passes and a still control is quiet; a
// control that moved by a fifth in every round (CI's h3 reading) fails
// at the fix's level, and so does a fix that does not move; each failure
// names its arm and lists its rounds with their order. Under a higher
// bar (a fix promising 5x), the same control is under it and passes,
// and a fix that moves 1.5x fails.
func TestJudgeArms(t *testing.T) {
	names := []string{"broken", "control", "fix"}
	orders := balancedOrders(rand.New(rand.NewPCG(1, 2)), 3, 6)
	moves := []float64{1.5, 1.6, 1.4, 1.55, 1.45, 1.5}
	still := []float64{1.02, 0.97, 1.01, 0.99, 1.03, 0.98}
	fivefold := []float64{5.6, 4.7, 6.1, 5.2, 4.9, 5.8}
	biased := []float64{1.33, 1.04, 1.02, 1.14, 1.06, 1.21}
	for _, tc := range []struct {
		name            string
		control, fix    []float64
		bar             float64
		failures        []string
		notInAnyFailure string
		logged          string
	}{
		{"clean", still, moves, 0, nil, "", ""},
		{"control moves", biased, moves, 0, []string{"control Client.HTTP2.MaxReadFrameSize=16Ki, a knob with no effect, passed as a fix: 1.13x [1.01, 1.26]"}, "fix did not", ""},
		{"fix still", still, still, 0, []string{"fix Engine=fast did not move the figure: 1.00x"}, "a knob with no effect", ""},
		{"control under a higher bar", biased, fivefold, 2, nil, "", "control: the arms measured 1.13x apart with nothing between them, under the 2.00x bar"},
		{"fix under a higher bar", still, moves, 2, []string{"fix Engine=fast did not move the figure: 1.50x [1.43, 1.57] at 95% over 6 rounds, want the interval above 1 and at least 2.00x"}, "a knob with no effect", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ar := armRounds{names: names, what: []string{"", "Client.HTTP2.MaxReadFrameSize=16Ki", "Engine=fast"}, gains: [][]float64{nil, tc.control, tc.fix}, orders: orders, bar: tc.bar}
			var logged []string
			got := judgeArms(func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }, ar, 1, []int{2})
			if tc.logged != "" && !slices.Contains(logged, tc.logged) {
				t.Errorf("logged %q, want %q", logged, tc.logged)
			}
			if len(got) != len(tc.failures) {
				t.Fatalf("failures %q, want %d", got, len(tc.failures))
			}
			for i, want := range tc.failures {
				first := strings.Join([]string{names[orders[0][0]], names[orders[0][1]], names[orders[0][2]]}, ", ")
				if !strings.Contains(got[i], want) || !strings.Contains(got[i], "rounds 1 ("+first+") ") || !strings.Contains(got[i], "6 (") {
					t.Errorf("failure %d: %q, want %q and each round with its order", i, got[i], want)
				}
				if tc.notInAnyFailure != "" && strings.Contains(got[i], tc.notInAnyFailure) {
					t.Errorf("failure %d: %q names %q", i, got[i], tc.notInAnyFailure)
				}
			}
		})
	}
}

// TestBalancedOrders: in each block of 2n rounds every arm runs in every
// position twice, before every other arm n times and right after every
// other arm twice; the rounds asked for are rounded up to whole blocks.
func TestBalancedOrders(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct{ n, rounds, want int }{{2, 4, 4}, {3, 12, 12}, {3, 5, 6}, {4, 5, 8}, {5, 10, 10}, {6, 12, 12}} {
		orders := balancedOrders(rng, c.n, c.rounds)
		if len(orders) != c.want {
			t.Fatalf("%d arms, %d rounds: %d orders, want %d", c.n, c.rounds, len(orders), c.want)
		}
		for b := 0; b < len(orders); b += 2 * c.n {
			pos := make([][]int, c.n)    // pos[arm][position]
			before := make([][]int, c.n) // before[i][j]: rounds i ran before j
			after := make([][]int, c.n)  // after[i][j]: rounds j ran right after i
			for k := range c.n {
				pos[k], before[k], after[k] = make([]int, c.n), make([]int, c.n), make([]int, c.n)
			}
			for _, o := range orders[b : b+2*c.n] {
				for p, k := range o {
					pos[k][p]++
					for _, j := range o[p+1:] {
						before[k][j]++
					}
					if p+1 < len(o) {
						after[k][o[p+1]]++
					}
				}
			}
			for i := range c.n {
				for j := range c.n {
					if pos[i][j] != 2 || (i != j && (before[i][j] != c.n || after[i][j] != 2)) {
						t.Fatalf("%d arms, block at %d: positions %v, before %v, right after %v: want 2, %d and 2", c.n, b, pos, before, after, c.n)
					}
				}
			}
		}
	}
}
