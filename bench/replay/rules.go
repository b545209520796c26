package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// The verdicts, decided by the rules below (stated in the document before
// the results).
const (
	agrees        = "agrees"
	disagrees     = "disagrees"
	notComparable = "not comparable"
	notTested     = "not tested" // R4: a claim of cause whose cause was not varied
)

// Row is one published claim beside httpvs's figure.
type Row struct {
	Source    string // the document or paper
	Claim     string // the figure as published
	Setup     string // how it was measured here, and how that differs
	Figure    string // httpvs's figure, with its interval
	Rule      string // which rule decided (R1, R2, R3, R4)
	Verdict   string
	Noise     string // R1 only: whether the published figure lies within the noise-widened interval
	Note      string // the cause of a disagreement, or why not comparable
	published float64
	col       string           // the column measured, for taking the row apart
	iv        results.Interval // the row's own interval, for taking it apart
}

// ratioRule is R1, decided on the plain 95% interval: the published
// ratio (throughput over the baseline's, >1 faster) inside it agrees,
// outside disagrees; no interval, or one wider than maxSpan (high over
// low), is not comparable. The interval widened on each side by the
// run's noise floor nf (the A/A interval's largest distance from 1) is
// reported apart, as noise: "yes" when the published ratio lies within
// it, so that no row agrees by the widening without saying so.
func ratioRule(pub float64, iv results.Interval, nf float64) (verdict, fig, noise string) {
	if iv.Pairs < 2 || iv.Low <= 0 {
		return notComparable, "no interval (fewer than two rounds)", ""
	}
	fig = ivText(iv)
	if nf > 0 {
		lo, hi := iv.Low/(1+nf), iv.High*(1+nf)
		noise = fmt.Sprintf("%s: [%.2f, %.2f] (A/A reach ±%.0f%%)", pick(pub >= lo && pub <= hi, "yes", "no"), lo, hi, nf*100)
	}
	if iv.High/iv.Low > maxSpan {
		return notComparable, fig + ": wider than a factor of 3, too noisy to decide", noise
	}
	return pick(pub >= iv.Low && pub <= iv.High, agrees, disagrees), fig, noise
}

// maxSpan is R1's widest interval (high over low) that decides: wider,
// a run agrees with almost any figure and so says nothing.
const maxSpan = 3

// directionRule is R2, for a claim of direction only (faster: the ratio
// above 1): an interval wholly on the claimed side of 1 agrees, wholly
// on the other side disagrees, holding 1 is not comparable (undecided).
func directionRule(faster bool, iv results.Interval) string {
	switch {
	case iv.Pairs < 2 || iv.Low <= 0:
		return notComparable
	case iv.Low > 1:
		return pick(faster, agrees, disagrees)
	case iv.High < 1:
		return pick(faster, disagrees, agrees)
	}
	return notComparable
}

// countRule is R3, for counts that barely vary between rounds
// (allocations, bytes allocated, connections): the measured ratio within
// a factor countFactor of the published one agrees.
func countRule(pub, got float64) string {
	if got <= 0 || pub <= 0 {
		return notComparable
	}
	if r := got / pub; r >= 1/countFactor && r <= countFactor {
		return agrees
	}
	return disagrees
}

// countFactor is R3's tolerance: Go 1.21 against 1.26 and older quic-go
// and grpc-go allocate differently, so a factor, not an interval.
const countFactor = 1.5

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

func ivText(iv results.Interval) string {
	if iv.Pairs < 2 {
		return fmt.Sprintf("%.2fx (one round, no interval)", iv.Ratio)
	}
	return fmt.Sprintf("%.2fx [%.2f, %.2f] (%d rounds)", iv.Ratio, iv.Low, iv.High, iv.Pairs)
}

// noiseOf is an A/A interval's largest relative distance from 1.
func noiseOf(iv results.Interval) float64 {
	if iv.Pairs < 2 || iv.Low <= 0 {
		return 0
	}
	return math.Max(iv.High-1, 1-iv.Low)
}

// rounds holds paired measurements: each round measured every column
// once, in a fresh random order.
type rounds map[string][]float64

// measureRounds runs n rounds over cols, each in a shuffled order, with
// one unrecorded warm-up round first when warm is set.
func measureRounds(n int, cols []string, warm bool, measure func(col string) (float64, error)) (rounds, error) {
	out := rounds{}
	start := 0
	if warm {
		start = -1
	}
	for r := start; r < n; r++ {
		order := append([]string(nil), cols...)
		rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, c := range order {
			v, err := measure(c)
			if err != nil {
				return out, fmt.Errorf("%s: %w", c, err)
			}
			if r >= 0 {
				out[c] = append(out[c], v)
			}
		}
	}
	return out, nil
}

// ratio is the interval of a's over b's, round by round; with
// lowerBetter (ns/op) b's over a's, so that above 1 is always faster.
func (rs rounds) ratio(a, b string, lowerBetter bool) results.Interval {
	var logs []float64
	for i := range min(len(rs[a]), len(rs[b])) {
		x, y := rs[a][i], rs[b][i]
		if x <= 0 || y <= 0 {
			continue
		}
		l := math.Log(x / y)
		if lowerBetter {
			l = -l
		}
		logs = append(logs, l)
	}
	return analysis.LogInterval(logs)
}

// median of a column's values.
func (rs rounds) median(col string) float64 {
	v := append([]float64(nil), rs[col]...)
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}
