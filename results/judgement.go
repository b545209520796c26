package results

// Judgement is what the analysis concluded from a run, beyond each
// cell's own interval and verdict (Cell.VsBaseline, Cell.MainCause, Cell.Marks):
// the noise floor per kind of work, each cause once with the cells it is
// the main cause of, and the caveats about the machine. Renderers only
// format it; nil in results written before it was recorded.
type Judgement struct {
	// Decided counts the verdict cells (the transports against the
	// baseline, variants included) whose verdict is slower, faster or
	// similar; Cells counts those with an interval.
	Decided int `json:"decided"`
	Cells   int `json:"cells"`
	// Floors are the A/A cells per kind of work.
	Floors []NoiseFloor `json:"noise_floors,omitempty"`
	// Causes are the rules that are some cell's main cause, each once,
	// in the diagnosis's order.
	Causes []Cause `json:"causes,omitempty"`
	// Caveats are findings about the machine or the generator, not the
	// transport (machine-bound, generator-bound, ...), each once.
	Caveats []Cause `json:"caveats,omitempty"`
	// Tuned is the variant rows' knob set and, per transport and
	// scenario, whether it raised the ratio (its own paired test); nil
	// without variant rows.
	Tuned *TunedRows `json:"tuned,omitempty"`
	// Precision is the half-width the run was planned to (Settings.Precision
	// or ±10%); Open lists each cell still open, widest first,
	// with what limits it: undetermined under the sequential rule, else
	// wider than Precision.
	Precision float64     `json:"precision,omitempty"`
	Open      []Precision `json:"open,omitempty"`
	// Scenarios describes each scenario of the run, in the run's order.
	Scenarios []ScenarioInfo `json:"scenarios,omitempty"`
}

// Precision says what keeps a cell open: the spread of its rounds'
// ratios, the rounds that spread would need, and which side's CPU cost
// per unit moved most from round to round (on a machine shared by the
// generator and the server, the rate follows the cost per unit, so the
// side whose cost moved is where the noise came from).
type Precision struct {
	Scenario string `json:"scenario"`
	Protocol string `json:"protocol"`
	// HalfWidth is the interval's relative half-width (0.14: ±14%).
	HalfWidth float64 `json:"half_width"`
	// Pairs is the rounds it had; Needed the rounds the run's own rule
	// would need at its mean and spread, 0 past 100: under Sequential, the
	// most rounds (MaxRepeat) whose last look decides it; rounds planned
	// for precision, Stein's plan from its first stage; fixed rounds,
	// Student's t at that many.
	Pairs  int `json:"pairs"`
	Needed int `json:"needed"`
	// Side ("client" or "server") and Column (the cell's transport or the
	// baseline) are where the CPU cost per unit moved most between rounds;
	// Moved is by how much (standard deviation of its logarithm: 0.2 is
	// about ±20%), and Other the other side's largest. Side is "" when
	// the repetitions carry no CPU figures.
	Side   string  `json:"side,omitempty"`
	Column string  `json:"column,omitempty"`
	Moved  float64 `json:"moved,omitempty"`
	Other  float64 `json:"other,omitempty"`
}

// Judged is what the analysis concluded of one cell, kept in the cell's
// JSON object beside its figures.
type Judged struct {
	// MainCause is the rule of the finding that explains the cell's gap
	// best (the analysis's choice); "" when none does. Marks are the
	// analysis's caveats on the cell's verdict ("machine-bound",
	// "within-noise-floor").
	MainCause string   `json:"main_cause,omitempty"`
	Marks     []string `json:"marks,omitempty"`
	// RoundsMedian is the median the detail table prints beside the
	// cell's ratio, over the rounds that ratio used: a transport's over
	// the rounds it paired with the baseline, the baseline's over the
	// rounds every other column paired with it (RoundsUsed of RoundsOf);
	// nil when no round paired. MediansAgainst says why those medians
	// point the other way from the verdict ("other rounds", with the
	// baseline's median over the cell's rounds, or "same rounds").
	RoundsMedian      *float64 `json:"rounds_median,omitempty"`
	RoundsUsed        int      `json:"rounds_used,omitempty"`
	RoundsOf          int      `json:"rounds_of,omitempty"`
	MediansAgainst    string   `json:"medians_against,omitempty"`
	AgainstBaseMedian float64  `json:"against_base_median,omitempty"`
	// MedianRepetition is the 1-based index in Repetitions of the repetition whose
	// value is the cell's median, of those that count (the lower middle
	// one for an even count): the one whose other figures a report shows
	// beside the median; 0 when none counts.
	MedianRepetition int `json:"median_repetition,omitempty"`
	// Ratio is the cell's ratio to its baseline as the verdict states it:
	// VsBaseline's where a round paired, RatioToBaseline otherwise; 0 without a
	// baseline cell.
	Ratio float64 `json:"ratio,omitempty"`
	// LinkTotal sums the link counters of the completed repetitions; nil
	// when none has them. EmulatorBehind says how the emulator fell
	// behind over them (more than 1% of the packets late, the latest by
	// more than 2% of the round trip): the cell crossed a slower link
	// than the one set; "" when it kept up.
	LinkTotal      *RepetitionLink `json:"link_total,omitempty"`
	EmulatorBehind string          `json:"emulator_behind,omitempty"`
}

// NoiseFloor is one kind of work's A/A cells: the baseline measured twice
// in the same rounds, which should read ≈.
type NoiseFloor struct {
	// Kind is the kind of work: "transfer", "request load", "gRPC load"
	// or "timed".
	Kind string `json:"kind"`
	// Cells counts the A/A cells with an interval; FalseCalls those
	// called slower or faster (at 95%, about one in twenty is expected
	// by chance).
	Cells      int `json:"cells"`
	FalseCalls int `json:"false_calls"`
	// Reach is the largest relative distance from 1 of those intervals.
	Reach float64 `json:"reach"`
	// Within lists the cells of this kind called slower or faster by less
	// than Reach ("scenario/transport"): inside what the A/A reached with
	// no difference to find.
	Within []string `json:"within,omitempty"`
}

// Cause is one rule across a run: what it says, the fix as settings, and
// the cells it is the main cause (or caveat) of.
type Cause struct {
	Rule string `json:"rule"`
	// What is the rule in one short sentence, without figures (each
	// cell's Finding has its evidence).
	What string `json:"what"`
	// Knobs are the settings the fix changes, with the values that were
	// measured or must exceed the default; empty when it is not a setting.
	Knobs []Knob `json:"knobs,omitempty"`
	// Cells are "scenario/transport", in the run's order.
	Cells []string `json:"cells"`
}

// TunedRows are the variant rows (Settings.Alongside): the knob set they
// ran with and each one's gain over the shipped row.
type TunedRows struct {
	Knobs string     `json:"knobs"`
	Gains []TunedRow `json:"gains,omitempty"`
}

// TunedRow is a variant cell against the shipped cell of the same
// transport and scenario: Word is "raised", "lowered", "no change" or
// "can't tell", from Gain (nil without a paired test: then "can't tell").
// From and To are each row's ratio to its own baseline (shipped and tuned
// h1), so their quotient is not the gain; both are absent for the
// baseline's row.
type TunedRow struct {
	Cell string    `json:"cell"`           // the shipped cell, "download/h2c"
	From float64   `json:"from,omitempty"` // the shipped cell's ratio to the shipped baseline
	To   float64   `json:"to,omitempty"`   // the variant cell's, to the variant's baseline
	Gain *Interval `json:"gain,omitempty"`
	Word string    `json:"word"`
}
