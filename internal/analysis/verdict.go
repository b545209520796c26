package analysis

import (
	"math"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// Matters is the smallest difference from the baseline a verdict of
// VerdictSimilar must exclude: an interval that holds 1 but reaches
// below 1/(1+Matters) or above 1+Matters is VerdictUndetermined.
const Matters = vocab.Matters

// Negligible is the largest difference from h1 a verdict ignores: an
// interval that lies within 2% of 1 is VerdictSimilar even when it
// excludes 1 (an emulated link's rounds can pin 0.998x to ±0.1%).
const negligible = 0.02

// LogInterval is the geometric mean of the ratios whose logarithms are
// logs, with its 95% interval (Student's t on the logarithms) and the
// pairs it had; Low and High are zero with fewer than two, and Verdict is
// left to the caller.
func LogInterval(logs []float64) results.Interval {
	n := len(logs)
	if n == 0 {
		return results.Interval{}
	}
	m := Mean(logs)
	iv := results.Interval{Ratio: math.Exp(m), Pairs: n}
	if n < 2 {
		return iv
	}
	var ss float64
	for _, l := range logs {
		ss += (l - m) * (l - m)
	}
	half := TQuantile975(n-1) * math.Sqrt(ss/float64(n-1)/float64(n))
	iv.Low, iv.High = math.Exp(m-half), math.Exp(m+half)
	return iv
}

// ratioInterval pairs c's repetitions with base's (the h1 cell of its
// scenario) by round, over the rounds where both completed without an
// interrupt and without errors, and returns the ratio's interval. For a
// lower-is-better metric each round's ratio is h1's value over c's, so that
// above 1 means faster for every metric.
func ratioInterval(c, base *results.Cell) results.Interval {
	pairs := PairRounds(c, base)
	logs := logRatios(c.Metric, pairs)
	if c.FirstStage <= 0 {
		return judged(LogInterval(logs))
	}
	if c.LastLook > c.FirstStage {
		return sequentialJudged(logs, c.FirstStage, c.LastLook)
	}
	var stage int
	for _, p := range pairs {
		if p.Round <= c.FirstStage {
			stage++
		}
	}
	return judged(twoStageInterval(logs, stage))
}

// twoStageInterval is LogInterval of logs when the first stage of them
// (the first `stage`, in round order) decided how many more were taken,
// from its spread alone (Stein's two-stage procedure): the half-width is
// the wider of the pooled one (Student's t on all of logs) and Stein's
// (the first stage's standard deviation and t quantile over the square
// root of all the pairs). The pooled interval alone calls differences
// that are not there more often than it says: a first stage that
// underestimates the spread adds few rounds and keeps its narrow
// interval, while one that overestimates it adds rounds that correct it
// (8.1% of A/A cells at a round spread of 15%, normal rounds, in
// TestTwoStageHoldsItsLevel). Stein's alone is exact for normal rounds;
// the wider of the two holds 5% under heavy tails too. With no pairs
// past the first stage it is LogInterval's.
func twoStageInterval(logs []float64, stage int) results.Interval {
	iv := LogInterval(logs)
	if stage < 2 || stage >= len(logs) {
		return iv
	}
	first := LogInterval(logs[:stage])
	// The first stage's half-width, at all of the pairs: its spread and
	// its t quantile with the square root of len(logs), not of stage.
	half := math.Log(first.High/first.Low) / 2 * math.Sqrt(float64(stage)/float64(len(logs)))
	if pooled := math.Log(iv.High/iv.Low) / 2; half > pooled {
		m := math.Log(iv.Ratio)
		iv.Low, iv.High = math.Exp(m-half), math.Exp(m+half)
	}
	return iv
}

// judged is iv with its Verdict set (none with fewer than two pairs).
func judged(iv results.Interval) results.Interval {
	if iv.Pairs < 2 {
		return iv
	}
	switch {
	case iv.Low >= 1/(1+negligible) && iv.High <= 1+negligible:
		iv.Verdict = results.VerdictSimilar
	case iv.High < 1:
		iv.Verdict = results.VerdictSlower
	case iv.Low > 1:
		iv.Verdict = results.VerdictFaster
	case iv.Low < 1/(1+Matters) || iv.High > 1+Matters:
		iv.Verdict = results.VerdictUndetermined
	default:
		iv.Verdict = results.VerdictSimilar
	}
	return iv
}

// roundOf is r's round; i+1 for results without rounds (r is the i-th
// repetition of its cell).
func roundOf(r results.Repetition, i int) int {
	if r.Round > 0 {
		return r.Round
	}
	return i + 1
}

// FirstRounds is c with the repetitions of its first k rounds only (by
// the round rule every paired figure uses).
func FirstRounds(c *results.Cell, k int) *results.Cell {
	f := *c
	f.Repetitions = nil
	for i, r := range c.Repetitions {
		if roundOf(r, i) <= k {
			f.Repetitions = append(f.Repetitions, r)
		}
	}
	return &f
}

// pairedLogRatios are the logarithms of c's ratios to base, round by
// round (PairRounds); above 0 is faster.
func pairedLogRatios(c, base *results.Cell) []float64 {
	return logRatios(c.Metric, PairRounds(c, base))
}

// logRatios are the logarithms of pairs' ratios of a cell of metric to
// its baseline; above 0 is faster.
func logRatios(metric string, pairs []RoundPair) []float64 {
	var logs []float64
	for _, p := range pairs {
		ratio := p.Cell.Value / p.Base.Value
		if LowerIsBetter(metric) {
			ratio = p.Base.Value / p.Cell.Value // h1's time over c's: above 1 is faster
		}
		logs = append(logs, math.Log(ratio))
	}
	return logs
}

// RatioInterval is the ratio of c's rounds to base's, paired by round,
// with its 95% interval (as Cell.VsBaseline).
func RatioInterval(c, base *results.Cell) results.Interval { return ratioInterval(c, base) }
