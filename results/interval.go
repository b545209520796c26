package results

import (
	"math"
)

// Verdict values: how a cell compares with h1 in its scenario.
const (
	VerdictSlower  = "slower"  // the interval of the ratio to h1 lies below 1
	VerdictFaster  = "faster"  // the interval lies above 1
	VerdictSimilar = "similar" // the interval holds 1 and excludes a difference of Matters, or lies within Negligible of 1
	// VerdictUndetermined: the interval holds 1 but reaches a difference
	// of Matters or more: the rounds cannot tell (benchstat's "~" does not
	// say which; "≈" would claim no difference).
	VerdictUndetermined = "undetermined"
	VerdictUnknown      = "" // no interval: fewer than two paired repetitions
)

// StableHalfWidth is the largest relative half-width of a ratio's interval
// for a cell to count as stable: its ratio is known within ±10%.
const StableHalfWidth = 0.10

// Interval is a ratio to h1 with its 95% confidence interval, from the
// repetitions paired by round (repetition i of a cell and of h1 ran in the
// same round, interleaved, so drift on the machine hits both).
type Interval struct {
	// Ratio is the geometric mean of the paired ratios; Low and High bound
	// it (Student's t on the logarithms of the ratios).
	Ratio float64 `json:"ratio"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	Pairs int     `json:"pairs"` // repetitions paired
	// Verdict is VerdictSlower, VerdictFaster, VerdictSimilar or
	// VerdictUndetermined; "" with fewer than two pairs.
	Verdict string `json:"verdict"`
}

// HalfWidth is the interval's half-width relative to Ratio; +Inf when
// there is no interval.
func (iv Interval) HalfWidth() float64 {
	if iv.Pairs < 2 || iv.Ratio <= 0 {
		return math.Inf(1)
	}
	return (iv.High - iv.Low) / 2 / iv.Ratio
}

// Stable reports whether the interval is within StableHalfWidth.
func (iv Interval) Stable() bool { return iv.HalfWidth() <= StableHalfWidth }

// Ratio is c's ratio to its baseline as the verdict states it: the
// geometric mean of the rounds' paired ratios (VsH1) where a round
// paired, the ratio of the medians (RatioToH1) otherwise; 0 where there
// is no baseline cell. Every renderer prints this one figure per cell.
func (c *Cell) Ratio() float64 {
	if c.VsH1 != nil && c.VsH1.Pairs > 0 {
		return c.VsH1.Ratio
	}
	return c.RatioToH1
}
