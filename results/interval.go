package results

// Verdict values: how a cell compares with h1 in its scenario.
const (
	VerdictSlower  = "slower"  // the interval of the ratio to h1 lies below 1
	VerdictFaster  = "faster"  // the interval lies above 1
	VerdictSimilar = "similar" // the interval holds 1 and excludes a difference of 25%, or lies within Negligible of 1
	// VerdictUndetermined: the interval holds 1 but reaches a difference
	// of 25% or more: the rounds cannot tell (benchstat's "~" does not
	// say which; "≈" would claim no difference).
	VerdictUndetermined = "undetermined"
	VerdictUnknown      = "" // no interval: fewer than two paired repetitions
)

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
