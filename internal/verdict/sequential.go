package verdict

import (
	"math"
	"sync"

	"github.com/httpvs/httpvs/internal/sampling"
	"github.com/httpvs/httpvs/results"
	"gonum.org/v1/gonum/stat/distuv"
)

// SequentialRule names Sequential's design in results.
const SequentialRule = "group-sequential, Lan-DeMets spending (1% at the first look, Pocock-type after), t at each look"

// FirstLookAlpha is what Sequential spends at its first look: enough
// that a run whose budget ends there still decides most cells (an
// interval 1.8 times the fixed one after four rounds), little enough
// that the looks after stay close to a fixed interval.
const FirstLookAlpha = 0.01

// designAlpha is the alpha the boundaries are computed for. Student's t
// at each look's nominal level (the significance-level approach) runs a
// little past a normal boundary's chance with few rounds: at 5%, 6.2% of
// simulated A/A cells crossed some look of 4 to 16 (TestSequentialHoldsItsLevel's
// worst stopping rule); computed for 4.5%, 5.6%, and the run's own
// stopping rule about 2.5%.
const designAlpha = 0.045

// firstLookSpent is Sequential's spending function: FirstLookAlpha at
// the first look (information fraction t1), the rest of alpha by the
// Pocock-type function over the information past it. Pocock's spends
// early: a cell a few rounds from deciding decides in those rounds
// (O'Brien-Fleming's, which keeps nearly all for the last looks, left
// the looks after rounds 5 to 7 no narrower than the first).
func firstLookSpent(alpha, t, t1 float64) float64 {
	switch {
	case t < t1-1e-9:
		return 0
	case t1 >= 1 || t >= 1:
		return alpha
	}
	a1 := min(FirstLookAlpha, alpha)
	return a1 + (alpha-a1)*pocockSpent((t-t1)/(1-t1))
}

// pocockSpent is the share of alpha Lan and DeMets' Pocock-type spending
// function spends by information fraction t: log(1 + (e-1)t).
func pocockSpent(t float64) float64 {
	if t <= 0 {
		return 0
	}
	return math.Log(1 + (math.E-1)*t)
}

type looksKey struct {
	first, last int
	alpha       float64
}

var boundaryCache sync.Map // looksKey -> []float64

// sequentialLevels is each look's two-sided nominal level, from the look
// after round first to the one after round last (one a round): the
// chance the normal boundary of the look is crossed there and at no look
// before is what the spending function allots it, found by numerical
// integration over the looks (Armitage, McPherson and Rowe 1969). With
// one look it is alpha.
func sequentialLevels(first, last int, alpha float64) []float64 {
	first = max(first, 2)
	last = max(last, first)
	k := looksKey{first, last, alpha}
	if v, ok := boundaryCache.Load(k); ok {
		return v.([]float64)
	}
	bounds := boundaries(first, last, alpha)
	levels := make([]float64, len(bounds))
	for i, c := range bounds {
		levels[i] = 2 * (1 - distuv.UnitNormal.CDF(c))
	}
	boundaryCache.Store(k, levels)
	return levels
}

// gridPoints is the grid the integration's densities live on, per look
// (Simpson's rule: odd).
const gridPoints = 101

// boundaries is the normal (known-spread) boundary of each look.
func boundaries(first, last int, alpha float64) []float64 {
	return boundariesBy(first, last, alpha, func(alpha, t float64) float64 {
		return firstLookSpent(alpha, t, float64(first)/float64(last))
	})
}

// boundariesBy is boundaries under the spending function spent.
func boundariesBy(first, last int, alpha float64, spent func(alpha, t float64) float64) []float64 {
	var out []float64
	var zs, dens []float64 // the continuation region's grid and density
	prevSpent, prevInfo := 0.0, 0.0
	for n := first; n <= last; n++ {
		info := float64(n)
		spend := spent(alpha, info/float64(last)) - prevSpent
		if len(out) == 0 {
			c := distuv.UnitNormal.Quantile(1 - spend/2)
			out = append(out, c)
			zs, dens = grid(c), nil
			for _, z := range zs {
				dens = append(dens, distuv.UnitNormal.Prob(z))
			}
		} else {
			cross := func(c float64) float64 { return crossing(zs, dens, prevInfo, info, c) }
			lo, hi := 0.0, 12.0
			for range 36 {
				mid := (lo + hi) / 2
				if cross(mid) > spend {
					lo = mid
				} else {
					hi = mid
				}
			}
			c := (lo + hi) / 2
			out = append(out, c)
			nz := grid(c)
			nd := make([]float64, len(nz))
			for j, z := range nz {
				nd[j] = simpson(zs, func(i int) float64 {
					return dens[i] * transition(zs[i], z, prevInfo, info)
				})
			}
			zs, dens = nz, nd
		}
		prevSpent += spend
		prevInfo = info
	}
	return out
}

// grid is gridPoints evenly spaced points on [-c, c].
func grid(c float64) []float64 {
	out := make([]float64, gridPoints)
	for i := range out {
		out[i] = -c + 2*c*float64(i)/float64(gridPoints-1)
	}
	return out
}

// simpson integrates f (given at zs's points, evenly spaced) over zs.
func simpson(zs []float64, f func(i int) float64) float64 {
	h := zs[1] - zs[0]
	var s float64
	for i := range zs {
		w := 2.0
		switch {
		case i == 0 || i == len(zs)-1:
			w = 1
		case i%2 == 1:
			w = 4
		}
		s += w * f(i)
	}
	return s * h / 3
}

// transition is the density of the statistic z at information i1 given
// u at i0 (a Brownian motion's increment between them).
func transition(u, z, i0, i1 float64) float64 {
	d := i1 - i0
	x := (z*math.Sqrt(i1) - u*math.Sqrt(i0)) / math.Sqrt(d)
	return math.Exp(-x*x/2) / math.Sqrt(2*math.Pi) * math.Sqrt(i1/d)
}

// crossing is the chance of being inside at the last look (density dens
// over zs at information i0) and outside ±c at information i1.
func crossing(zs, dens []float64, i0, i1, c float64) float64 {
	d := math.Sqrt(i1 - i0)
	return simpson(zs, func(i int) float64 {
		m := zs[i] * math.Sqrt(i0)
		return dens[i] * (distuv.UnitNormal.CDF((-c*math.Sqrt(i1)-m)/d) + 1 - distuv.UnitNormal.CDF((c*math.Sqrt(i1)-m)/d))
	})
}

// sequentialInterval is the interval Sequential gives after logs, in
// round order, looks after rounds first to last: at each look from first
// to len(logs), Student's t at the level the look is allotted over the
// pairs so far (fewer pairs than first take the first look's level, more
// than last the last's), and the intersection of those, which holds as
// they all do together; the last look's alone where the intersection
// leaves out the mean of all the pairs (drift), which holds as well.
// Centred on that mean, as LogInterval. With last at first or below,
// one look: LogInterval's own.
func sequentialInterval(logs []float64, first, last int) results.Interval {
	iv := LogInterval(logs)
	n := len(logs)
	if n < 2 || last <= first {
		return iv
	}
	m := math.Log(iv.Ratio)
	lo, hi := math.Inf(-1), math.Inf(1)
	for k := min(max(first, 2), n); k <= n; k++ {
		km, ksd := LogSpread(logs[:k])
		h := sequentialHalf(ksd, k, first, last)
		lo, hi = math.Max(lo, km-h), math.Min(hi, km+h)
		if k == n && (m < lo || m > hi) {
			lo, hi = km-h, km+h
		}
	}
	iv.Low, iv.High = math.Exp(lo), math.Exp(hi)
	return iv
}

// sequentialHalf is the log half-width of the look after n pairs of
// spread sd (one round's standard deviation) under looks first to last.
func sequentialHalf(sd float64, n, first, last int) float64 {
	first = max(first, 2)
	alpha := designAlpha
	if last <= first {
		alpha = SequentialAlpha // one look: the fixed interval's
	}
	levels := sequentialLevels(first, last, alpha)
	k := min(max(n, first), max(last, first)) - first
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(1 - levels[k]/2)
	return t * sd / math.Sqrt(float64(n))
}

// SequentialAlpha is the chance Sequential's intervals may miss, over
// all the looks together.
const SequentialAlpha = 0.05

// decidingHalf is the largest log half-width an interval centred on the
// log ratio m may have and be decided: below |m| it excludes 1 (slower
// or faster); within log(1+Matters) - |m| it lies inside the ±Matters
// band (≈).
func decidingHalf(m float64) float64 {
	return math.Max(math.Abs(m), math.Log(1+Matters)-math.Abs(m))
}

// RoundsToDecide predicts, for a cell with pairs log ratios of mean m and
// spread sd (one round's standard deviation) under looks first to last,
// the fewest rounds past pairs, up to last, after which its interval is
// expected decided if its mean and spread stay as they are; 0 when last
// is not expected to do it. Gap says how far the last look is expected to
// stay from deciding (its half-width over the widest that decides: 1 or
// less when it decides), which orders cells that last does not decide.
// The plan may follow the data: the intervals hold at every look
// together, however rounds are given.
func RoundsToDecide(m, sd float64, pairs, first, last int) (more int, gap float64) {
	want := decidingHalf(m)
	for n := pairs + 1; n <= last; n++ {
		if sequentialHalf(sd, n, first, last) <= want {
			return n - pairs, 0
		}
	}
	if want <= 0 {
		return 0, math.Inf(1)
	}
	return 0, sequentialHalf(sd, max(last, 2), first, last) / want
}

// sequentialRoundsFor is the fewest rounds, first to most, of a design
// with looks after rounds first to that many whose last look is expected
// to decide a cell of mean log ratio m and spread sd: what --max-repeat
// would have to be. 0 when most does not do it.
func sequentialRoundsFor(m, sd float64, first, most int) int {
	want := decidingHalf(m)
	ok := func(n int) bool { return sequentialHalf(sd, n, first, n) <= want }
	if most < max(first, 2) || !ok(most) {
		return 0
	}
	lo, hi := max(first, 2), most // ok(hi); find the fewest
	for lo < hi {
		mid := (lo + hi) / 2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// PairedLogs are the logarithms of c's ratios to base, round by round
// (PairRounds); above 0 is faster.
func PairedLogs(c, base *results.Cell) []float64 { return pairedLogRatios(c, base) }

// LogSpread is the mean of logs and their sample standard deviation (one
// round's spread); 0 spread with fewer than two.
func LogSpread(logs []float64) (mean, sd float64) {
	if len(logs) == 0 {
		return 0, 0
	}
	mean = sampling.Mean(logs)
	if len(logs) > 1 {
		sd = math.Sqrt(sampling.Variance(logs, mean))
	}
	return mean, sd
}
