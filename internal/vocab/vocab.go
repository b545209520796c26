// Package vocab holds the words and thresholds of the method: what
// results.json's judged fields hold (docs/results-schema.md lists them),
// shared by the analysis that writes them and report, which formats them.
// One constant a line, as results.json's readers see it.
package vocab

// Thresholds the analysis judges by and renderers name.
const (
	// Matters is the relative difference the verdict treats as one: ≈
	// says the interval holds 1 and excludes a difference this large.
	Matters = 0.25
	// StableHalfWidth is the largest relative half-width of a ratio's
	// interval for a cell to count as stable.
	StableHalfWidth = 0.10
	// NoisySpread is the spread ((max-min)/median) of a cell's
	// repetitions above which it is flagged as noisy.
	NoisySpread = 0.10
	// AttributionRoughSamples is the fewest CPU samples on each side of
	// an attribution for its shares to be more than rough.
	AttributionRoughSamples = 100
	// CompareMinRounds is the fewest rounds a cell needs in each run for
	// compare's test to tell its change from noise.
	CompareMinRounds = 2
)

// Names.
const (
	// VariantSep joins a scenario and a knob set's name in a variant
	// row's scenario ("download:tuned").
	VariantSep = ":"
	// BrowserScenario is the name the real browser's page loads go by,
	// beside page-load, the model they are held to.
	BrowserScenario = "browser-page-load"
	// ReferenceGo is a reference cell's server when it is the run's own.
	ReferenceGo = "go"
	// NativeColumn is the column of gRPC scenarios served by grpc-go's own
	// binding (grpc.Server over h2c) rather than through net/http.
	NativeColumn = "grpc-native"
)

// Marks a cell carries (Cell.Marks).
const (
	// MarkMachineBound: the cell's difference is the machine's (client
	// and server together used all of it), not the transport's.
	MarkMachineBound = "machine-bound"
	// MarkWithinFloor: called slower or faster by less than its kind's
	// A/A reached (NoiseFloor.Within).
	MarkWithinFloor = "within-noise-floor"
)

// Why a cell's printed medians point against its verdict
// (Cell.MediansAgainst).
const (
	// AgainstOtherRounds: the baseline's median is over other rounds than
	// the cell's; over the cell's own it agrees (Cell.AgainstBaseMedian).
	AgainstOtherRounds = "other rounds"
	// AgainstSameRounds: over the very same rounds the medians point the
	// other way; the ratio takes each round's pair, the medians do not.
	AgainstSameRounds = "same rounds"
)

// The classes of a cell against its link (Bound.Class).
const (
	ClassAtLink      = "at the link"
	ClassAtLossBound = "at its controller's loss bound"
	ClassUnexplained = "unexplained"
	ClassBeyond      = "beyond the link's bound"
	ClassUndecided   = "undetermined (its median below the link, its interval reaching it)"
)

// ModelCheck verdicts, by the verdict's rule on the browser's time over
// the model's.
const (
	ModelAgrees       = "agrees"       // ≈: the interval holds 1 and excludes a difference of Matters (or lies within Negligible of 1)
	ModelSlower       = "slower"       // the interval lies above 1: the browser loads the page slower than the model
	ModelFaster       = "faster"       // the interval lies below 1
	ModelUndetermined = "undetermined" // the interval holds 1 but reaches a difference of Matters
	ModelNone         = "unknown"      // too few loads on a side to tell
)

// What a tuned knob set did to a transport's transfer against Go as
// shipped, in the same rounds (TunedGain.Word).
const (
	GainRaised   = "raised"     // the interval lies above 1
	GainLowered  = "lowered"    // the interval lies below 1
	GainNone     = "no change"  // the interval holds 1 within ±25% (or lies within ±2% of it)
	GainCantTell = "can't tell" // the interval holds 1 and reaches past ±25%
)

// What a comparison's Delta tests (Delta.Tested).
const (
	// TestedRatio: the cell's ratio to its run's baseline, round by round
	// (as the verdict pairs them), old run against new.
	TestedRatio = "ratio"
	// TestedValue: the baseline's own figure, which has no ratio: an
	// absolute change, which a busier or quieter machine moves as much as
	// the code does.
	TestedValue = "value"
)

// How a blocking client waited for its next bytes (ReadWaits.Mode).
const (
	WaitPolling  = "polling"
	WaitSleeping = "sleeping"
)

// A transfer's direction as results name it.
const (
	Download = "download"
	Upload   = "upload"
)
