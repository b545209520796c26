package analysis

import (
	"math"

	"github.com/httpvs/httpvs/results"
)

// brackets are c's searches; c's own Met and Missed as one search when
// it lists none.
func brackets(c results.CapacityResult) []results.CapacityBracket {
	if len(c.Searches) > 0 {
		return c.Searches
	}
	return []results.CapacityBracket{{Met: c.Met, Missed: c.Missed}}
}

// RatioOf is c's capacity over base's; nil when either met the objective
// at no rate or when neither search paired closed its bracket (both
// carried every rate they tried: the ratio would be the searches' progress).
func RatioOf(c, base results.CapacityResult) *results.CapacityRatio {
	pairs := pairSearches(brackets(c), brackets(base), false)
	if len(pairs) == 0 {
		// No search complete on both sides: the first one that met on
		// both, cut, for its resolution alone.
		if pairs = pairSearches(brackets(c), brackets(base), true); len(pairs) > 1 {
			pairs = pairs[:1]
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	var logs, lows, highs []float64
	lowOpen, highOpen, closed := false, false, false
	for _, p := range pairs {
		a, b := p[0], p[1]
		logs = append(logs, math.Log(a.Met/b.Met))
		closed = closed || a.Missed > 0 || b.Missed > 0
		if b.Missed > 0 {
			lows = append(lows, math.Log(a.Met/b.Missed))
		} else {
			lowOpen = true
		}
		if a.Missed > 0 {
			highs = append(highs, math.Log(a.Missed/b.Met))
		} else {
			highOpen = true
		}
	}
	if !closed {
		return nil
	}
	r := &results.CapacityRatio{Ratio: math.Exp(Mean(logs)), Searches: len(pairs)}
	if !lowOpen {
		r.ResolutionLow = math.Exp(Mean(lows))
	}
	if !highOpen {
		r.ResolutionHigh = math.Exp(Mean(highs))
	}
	if len(pairs) < 2 {
		return r
	}
	iv := LogInterval(logs)
	iv.Low, iv.High = min(iv.Low, r.ResolutionLow), max(iv.High, r.ResolutionHigh)
	if highOpen {
		iv.High = math.Inf(1)
	}
	iv = judged(iv)
	r.Low, r.Verdict = iv.Low, iv.Verdict
	if !highOpen {
		r.High = iv.High
	}
	return r
}

// pairSearches pairs cs[i] with bs[i] where both met the objective at
// some rate, and, unless cut is true, neither was cut by the budget.
func pairSearches(cs, bs []results.CapacityBracket, cut bool) [][2]results.CapacityBracket {
	var pairs [][2]results.CapacityBracket
	for i := 0; i < min(len(cs), len(bs)); i++ {
		if cs[i].Met > 0 && bs[i].Met > 0 && (cut || !cs[i].Cut && !bs[i].Cut) {
			pairs = append(pairs, [2]results.CapacityBracket{cs[i], bs[i]})
		}
	}
	return pairs
}
