package results

// What a comparison of two runs tests and says (httpvs compare). The
// analysis computes a Comparison; report only formats it.

// How a cell's ratio moved (Delta.Direction), and what a gate fails on
// (GateResult.FailOn): slower, faster, or either (changed).
const (
	CompareSlower  = "slower"
	CompareFaster  = "faster"
	CompareChanged = "changed"
)

// Comparison is two runs compared cell by cell, with what a reader needs
// to trust the comparison: the settings the runs did not share, which of
// them were partial, which baselines moved and which cells could not be
// tested. It is what httpvs compare --json prints.
type Comparison struct {
	// Old and New name the runs compared, such as their files.
	Old string `json:"old"`
	New string `json:"new"`
	// SettingsDiffer are the groups of settings the runs did not share
	//; empty, not nil, when they were run alike.
	SettingsDiffer []SettingDiff `json:"settings_differ"`
	// Partial names the runs (Old, New or both) that are partial; empty,
	// not nil, when neither is.
	Partial []string `json:"partial"`
	// Cells are the runs' cells side by side.
	Cells []Delta `json:"cells"`
	// BaselineMoved are the baseline cells whose own value moved
	//: the ratios to them hide it. Empty, not nil, when
	// none did.
	BaselineMoved []Delta `json:"baseline_moved"`
	// NotTested counts the cells that could not be tested.
	NotTested Untested `json:"not_tested"`
	// NotTestedReason says NotTested in the one line the text output
	// prints; "" when every cell was tested.
	NotTestedReason string `json:"not_tested_reason,omitempty"`
	// Gate is what compare --fail-on found; nil without one.
	Gate *GateResult `json:"gate,omitempty"`
	// Margin is the between-run spread each cell's test allows for
	// beside its rounds' (Delta.BetweenRunSD), and where it was
	// estimated; nil when the test allows for none.
	Margin *BetweenRuns `json:"margin,omitempty"`
}

// BetweenRuns is how far a cell's ratio to its baseline moves from one
// run of a build to the next beyond what each run's rounds say: the
// variance of a run's mean log-ratio about the build's own, less the
// part its rounds' spread explains (a one-way random-effects estimate
// over runs of one build; Kalibera and Jones, "Rigorous benchmarking in
// reasonable time", ISMM 2013), per kind of work. compare adds twice its
// variance (one run each side) to each cell's test: two runs of one
// build differ by that much more than their rounds say.
type BetweenRuns struct {
	// Source says in words what it was estimated from: the runs, their
	// rounds, the machine.
	Source string `json:"source"`
	// Runs counts the runs of one build it was estimated from.
	Runs int `json:"runs"`
	// Kinds are the estimates per kind of work (the noise floor's kinds:
	// transfer, requests, grpc, timed).
	Kinds []BetweenRunsKind `json:"kinds"`
}

// BetweenRunsKind is the between-run spread of one kind of work.
type BetweenRunsKind struct {
	Kind string `json:"kind"`
	// SD is the standard deviation of a run's mean log-ratio about the
	// build's beyond its rounds' spread (0.10: about 10% either way);
	// zero when the rounds explain the runs' spread.
	SD float64 `json:"sd"`
	// DF is the degrees of freedom of its variance (the cells' runs less
	// one each), which the test's degrees of freedom take into account.
	DF float64 `json:"df"`
	// Cells counts the cells of that kind it pooled.
	Cells int `json:"cells"`
}

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
	// Tested is what the test compared: "ratio" (the cell's ratio to its run's
	// baseline) or "value" (the baseline's own figure); ""
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
	// Direction is how the ratio moved by its test: CompareSlower or
	// CompareFaster when the change is significant, "~" when the test
	// cannot tell it from noise, "" when the cell was not tested on its
	// ratio (a baseline's own value, a cell on one side only).
	Direction string `json:"direction,omitempty"`
	// Untestable says the cell could not be tested for a difference: on
	// one side only, or too few rounds on either (Note says which).
	Untestable bool `json:"untestable,omitempty"`
	// BetweenRunSD is the between-run spread the test allowed for
	// (Comparison.Margin's SD for the cell's kind of work), zero for none.
	BetweenRunSD float64 `json:"between_run_sd,omitempty"`
}

// SettingDiff is a group of settings two runs did not share, so that
// their cells measured different things as well as different code.
type SettingDiff struct {
	Group string `json:"group"` // knobs, duration, repeat, net, go, cpus, protocols, scenarios, engine, size, target
	Old   string `json:"old"`   // the old run's value, "" for none
	New   string `json:"new"`   // the new run's value
}

// Untested counts the cells of ds that could not be tested for a
// difference: measured on one side only (or neither), or with too few
// repetitions for the test to tell a change from noise at its alpha.
type Untested struct {
	OnlyOld int `json:"only_old"`
	OnlyNew int `json:"only_new"`
	Neither int `json:"neither"`
	TooFew  int `json:"too_few_repetitions"` // on both sides, but too few repetitions
	// MinReps is the fewest repetitions on either side among TooFew.
	MinReps int `json:"min_repetitions"`
}

// GateResult is a gate's finding over a comparison.
type GateResult struct {
	// FailOn is the word the gate failed on (CompareSlower, CompareFaster or CompareChanged).
	FailOn string `json:"fail_on"`
	// Failed says Failing is not empty: compare exits 1.
	Failed bool `json:"failed"`
	// Failing are the cells that fail it; empty, not nil, when
	// none does.
	Failing []Delta `json:"failing"`
	// Line says it in one line.
	Line string `json:"line"`
}
