package results

// TunedGain is a tuned variant's cell (Cell.Knobs set, "download:tuned")
// against the cell of the same transport in the scenario it varies
// ("download"), measured in the same rounds: the ratio of the tuned
// cell's figure to the shipped one's, round by round (above 1: the
// tuned client is faster), with its 95% interval and the word it
// supports. It is its own paired comparison, not two intervals against
// two different h1 cells set side by side.
type TunedGain struct {
	// Shipped is the scenario the variant varies ("download").
	Shipped string `json:"shipped"`
	// Gain is tuned over shipped, paired by round (Interval.Verdict is
	// left empty: Word says it in a gain's terms).
	Gain Interval `json:"gain"`
	// Word is "raised", "lowered", "no change" or "can't tell"; "" with
	// fewer than two paired rounds.
	Word string `json:"word"`
}
