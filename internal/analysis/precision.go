package analysis

import (
	"math"
	"slices"

	"github.com/httpvs/httpvs/results"
)

// Precision says what keeps a cell open (results.Precision).
type Precision = results.Precision

// PrecisionLimits returns each cell of r still open, widest first, with
// what limits it: under the sequential rule (Settings.Sequential) each
// whose verdict is undetermined, else each whose interval to the
// baseline is wider than the run's precision (PrecisionOf).
func PrecisionLimits(r *results.Results) []Precision {
	var out []Precision
	baseline := r.Settings.BaselineProtocol()
	half := PrecisionOf(r.Settings)
	for i := range r.Cells {
		c := &r.Cells[i]
		switch {
		case c.VsBaseline == nil || c.VsBaseline.Pairs < 2:
			continue
		case r.Settings.Sequential != nil && c.VsBaseline.Verdict != results.VerdictUndetermined:
			continue
		case r.Settings.Sequential == nil && HalfWidth(*c.VsBaseline) <= half:
			continue
		}
		p := Precision{Scenario: c.Scenario, Protocol: c.Protocol, HalfWidth: HalfWidth(*c.VsBaseline), Pairs: c.VsBaseline.Pairs}
		base := r.Cell(c.Scenario, baseline)
		p.Needed = roundsNeeded(r, c, base, half)
		client := map[string]float64{c.Protocol: costSpread(c, false)}
		server := map[string]float64{c.Protocol: costSpread(c, true)}
		if base != nil {
			client[baseline], server[baseline] = costSpread(base, false), costSpread(base, true)
		}
		for _, col := range []string{c.Protocol, baseline} {
			for _, side := range []string{"client", "server"} {
				m := client
				if side == "server" {
					m = server
				}
				if v := m[col]; v > p.Moved {
					p.Side, p.Column, p.Moved = side, col, v
				}
			}
		}
		other := server
		if p.Side == "server" {
			other = client
		}
		p.Other = math.Max(other[c.Protocol], other[baseline])
		out = append(out, p)
	}
	slices.SortStableFunc(out, func(a, b Precision) int {
		switch {
		case a.HalfWidth > b.HalfWidth:
			return -1
		case a.HalfWidth < b.HalfWidth:
			return 1
		}
		return 0
	})
	return out
}

// roundsNeeded is Precision.Needed for c, whose baseline cell is base
// (nil when there is none).
func roundsNeeded(r *results.Results, c, base *results.Cell, half float64) int {
	s := r.Settings
	switch {
	case base == nil:
	case s.Sequential != nil:
		m, sd := LogSpread(PairedLogs(c, base))
		return sequentialRoundsFor(m, sd, max(c.FirstStage, s.Sequential.First), 100)
	case s.MaxRepeat > s.Repeat && c.FirstStage >= 2:
		stage := RatioInterval(FirstRounds(c, c.FirstStage), FirstRounds(base, c.FirstStage))
		if stage.Pairs >= 2 {
			return SteinRounds(stage, half, 100)
		}
	}
	return RoundsFor(pooledSpread(c, base), half, 100)
}

// RoundSpread is the standard deviation of one round's log ratio that iv
// implies (its log half-width over Student's t and the square root of its
// pairs); 0 with fewer than two pairs.
func roundSpread(iv results.Interval) float64 {
	if iv.Pairs < 2 || iv.Low <= 0 {
		return 0
	}
	half := math.Log(iv.High/iv.Low) / 2
	return half * math.Sqrt(float64(iv.Pairs)) / TQuantile975(iv.Pairs-1)
}

// RoundsFor is the fewest paired rounds, 2 to most, whose 95% interval is
// within half (relative, as StableHalfWidth) when one round's log ratio
// has standard deviation sd; 0 when most do not do it.
func RoundsFor(sd, half float64, most int) int {
	target := math.Asinh(half)
	for n := 2; n <= most; n++ {
		if TQuantile975(n-1)*sd/math.Sqrt(float64(n)) <= target {
			return n
		}
	}
	return 0
}

// SteinRounds is the rounds, from stage.Pairs to most, after which a
// cell whose first stage is stage reaches half (relative, as
// StableHalfWidth) under TwoStageInterval: Stein's second-stage size, the
// fewest n with t(stage.Pairs-1) * s0 / sqrt(n) within it, s0 the first
// stage's round spread. It uses the first stage's t quantile, not one
// that shrinks with n as RoundsFor's does: that is what lets the
// interval stay valid after the plan, and a plan with the shrinking
// quantile falls short of it. 0 when most rounds do not do it.
func SteinRounds(stage results.Interval, half float64, most int) int {
	sd, t0, target := roundSpread(stage), TQuantile975(stage.Pairs-1), math.Asinh(half)
	for n := max(stage.Pairs, 2); n <= most; n++ {
		if t0*sd/math.Sqrt(float64(n)) <= target {
			return n
		}
	}
	return 0
}

// pooledSpread is the standard deviation of c's log ratios to base over
// all their paired rounds: the spread a run of fixed rounds (--repeat N,
// one stage) would have. A two-stage VsBaseline keeps the first stage's
// spread in its width, which RoundSpread would read back as this one.
func pooledSpread(c, base *results.Cell) float64 {
	if base == nil {
		return roundSpread(*c.VsBaseline)
	}
	return roundSpread(LogInterval(logRatios(c.Metric, PairRounds(c, base))))
}

// costSpread is the standard deviation of the logarithm of c's CPU
// seconds per unit on one side over its clean repetitions; 0 with fewer
// than two.
func costSpread(c *results.Cell, server bool) float64 {
	var logs []float64
	for _, r := range c.Repetitions {
		v := r.ClientCPUPerUnit
		if server {
			if r.ServerCPUPerUnit == nil {
				continue
			}
			v = *r.ServerCPUPerUnit
		}
		if !r.Interrupted && r.Errors.Total == 0 && v > 0 {
			logs = append(logs, math.Log(v))
		}
	}
	if len(logs) < 2 {
		return 0
	}
	return math.Sqrt(Variance(logs, Mean(logs)))
}
