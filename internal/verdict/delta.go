package verdict

// Delta is one cell of two runs side by side.
type Delta struct {
	Scenario string `json:"scenario"`
	Protocol string `json:"protocol"`
	Metric   string `json:"metric"`
	// Old and New are the cells' medians; zero when the cell is missing
	// or skipped on that side.
	Old float64 `json:"old"`
	New float64 `json:"new"`
	// OldN and NewN are their completed repetitions (for a ratio, the
	// rounds paired with the baseline's).
	OldN int `json:"old_n"`
	NewN int `json:"new_n"`
	// Change is New/Old - 1: +0.10 is 10% more throughput.
	Change float64 `json:"change"`
	// Tested is what the test compared: TestedRatio or TestedValue; ""
	// when the cell could not be tested (Note says why).
	Tested string `json:"tested,omitempty"`
	// OldRatio and NewRatio are, for a ratio, the geometric means of the
	// paired ratios to the baseline in each run (the verdicts' figures),
	// and RatioChange NewRatio/OldRatio - 1.
	OldRatio    float64 `json:"old_ratio,omitempty"`
	NewRatio    float64 `json:"new_ratio,omitempty"`
	RatioChange float64 `json:"ratio_change,omitempty"`
	// RatioChangeLow and RatioChangeHigh bound RatioChange at
	// IntervalLevel: the test's interval on the paired log-ratios, at the
	// level that holds for every cell tested at once (Bonferroni over
	// them); zero without a test.
	RatioChangeLow  float64 `json:"ratio_change_low,omitempty"`
	RatioChangeHigh float64 `json:"ratio_change_high,omitempty"`
	IntervalLevel   float64 `json:"interval_level,omitempty"`
	// PRaw is the two-sided p-value of the test on the logarithms of the
	// tested samples: for a ratio, Smyth's moderated t on the paired
	// log-ratios (their variance pooled over both runs and drawn toward
	// the prior all the ratio cells' variances give), for a value
	// Welch's t-test. P is it corrected for the number of cells tested
	// (Holm); Significant says P < Alpha.
	PRaw        float64 `json:"p_raw"`
	P           float64 `json:"p"`
	Alpha       float64 `json:"alpha"`
	Significant bool    `json:"significant"`
	Note        string  `json:"note,omitempty"`
	// Baseline says the cell is both runs' baseline: the denominator of
	// every ratio of its scenario, so a change of its own moves them all.
	Baseline bool `json:"baseline,omitempty"`
	// ValueP is the p-value of the change of the cell's own figure
	// (Change), Welch's t-test on the logarithms of its values, corrected
	// (Holm) over the cells whose values were tested besides their
	// ratios; for a cell tested on its value, P. ValueSignificant says
	// ValueP < Alpha. A machine busier in one run moves every value alike:
	// a significant value change says the figure moved, not that the code
	// did.
	ValueP           float64 `json:"value_p,omitempty"`
	ValueSignificant bool    `json:"value_significant"`
	valuePRaw        float64 // ValueP before the correction; 0: untested
	valueTested      bool
	ol, nl           []float64 // the tested log-ratios, old and new
}
