package results

import (
	"fmt"
	"strings"
)

// Bound is a cell's figure held against the emulated link's physics: the
// best the link allows for the scenario (its goodput for a transfer,
// requests in flight per round trip for requests, the round trips a cold
// request's handshakes need), where the cell's median lies against it,
// and whether the distance is explained.
type Bound struct {
	// Value is the bound in the cell's metric: bytes per second, requests
	// per second, or seconds (a lower bound for times).
	Value float64 `json:"value"`
	// Basis says what sets it, e.g. "the link's calibrated goodput down"
	// or "3 round trips (TCP, TLS 1.3, request) of 50.4 ms".
	Basis string `json:"basis"`
	// Share is the cell's median over Value: 0.97 is a transfer at 97% of
	// the link; for times, 1.05 is 5% over the round trips' bound. Low and
	// High bound it (95%, from the repetitions; equal with one).
	Share float64 `json:"share"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	// Departs says the cell lies further from the bound than its interval
	// and the tolerance of its kind allow (boundTolerance); Faster says it
	// beat the bound, which no transport can: a measurement defect.
	Departs bool `json:"departs,omitempty"`
	Faster  bool `json:"faster,omitempty"`
	// Explained names what accounts for a departure: a diagnosis rule
	// (window-limited, generator-bound, ...), "cpu-bound", "losses",
	// "head-of-line" or "emulator-behind", with its evidence after ": ".
	Explained string `json:"explained,omitempty"`
	// Unexplained says the cell departs and nothing explains it: its
	// figure is an artefact of the measurement (rounds too short for the
	// link, say) until shown otherwise, and its verdict is not to be acted on.
	Unexplained bool `json:"unexplained,omitempty"`
	// Undetermined says a transfer's median lies below the link's
	// tolerance but its interval reaches the link, and no loss model
	// places it: too few rounds to say where it is.
	Undetermined bool `json:"undetermined,omitempty"`
	// Loss is, on a lossy link, what the loss response of the congestion
	// control that sent the cell's data predicts, beside the link's bound;
	// nil where no model applies.
	Loss *LossBound `json:"loss,omitempty"`
	// Class places the cell against its link in a few words: "at the
	// link", "at its controller's loss bound", "unexplained", "beyond the
	// link's bound", "undetermined (its median below the link, its
	// interval reaching it)", or "below the link: RULE" where another rule
	// accounts for the departure.
	Class string `json:"class,omitempty"`
}

// LossBound is a congestion control's response to a link's random loss
// (linkmodel.PredictLoss), held against a cell.
type LossBound struct {
	// Controller names the congestion control, e.g. "cubic", "bbr" or
	// "quic-go v0.65.0's cubic".
	Controller string `json:"controller"`
	// Value is its predicted rate, bytes per second: the link's bound for
	// a controller that does not back off on this loss.
	Value float64 `json:"value"`
	// Limited says Value is below the link's bound: the controller, not
	// the link, is expected to set the figure.
	Limited bool `json:"limited,omitempty"`
	// Basis names the model and its inputs.
	Basis string `json:"basis"`
	// Share is the cell's median over Value.
	Share float64 `json:"share"`
}

// String is the bound in a few words: "97% of the link's goodput" or
// "1.04x of 3 round trips".
func (b *Bound) String() string {
	basis, _, _ := strings.Cut(b.Basis, " (")
	if strings.HasSuffix(b.Basis, "no request returns sooner") || strings.Contains(basis, "round trips") {
		return fmt.Sprintf("%.2fx of %s", b.Share, basis)
	}
	return fmt.Sprintf("%.0f%% of %s", 100*b.Share, basis)
}
