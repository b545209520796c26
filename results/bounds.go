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

// The classes of a cell against its link (Bound.Class).
const (
	ClassAtLink      = "at the link"
	ClassAtLossBound = "at its controller's loss bound"
	ClassUnexplained = "unexplained"
	ClassBeyond      = "beyond the link's bound"
	ClassUndecided   = "undetermined (its median below the link, its interval reaching it)"
)

// Class places the cell against its link in a few words: ClassAtLossBound
// where the loss model of its congestion control predicts it (Explained
// by "losses" or "congestion-control"), ClassUndecided where its median
// is below the link but its interval reaches it, ClassAtLink within the
// bound's tolerance, ClassBeyond above the bound (a measurement
// defect), ClassUnexplained where nothing accounts for a departure, or
// "below the link: RULE" where another rule does.
func (b *Bound) Class() string {
	rule, _, _ := strings.Cut(b.Explained, ":")
	switch {
	case b.Faster:
		return ClassBeyond
	case rule == "losses" || rule == "congestion-control":
		return ClassAtLossBound
	case b.Undetermined:
		return ClassUndecided
	case !b.Departs:
		return ClassAtLink
	case b.Unexplained || rule == "":
		return ClassUnexplained
	}
	return "below the link: " + rule
}

// Thresholds of EmulatorBehind: the share of a cell's packets the TUN
// emulator wrote late (over 1 ms after their time), and how late the
// latest was against the link's round trip (at least 1 ms).
const (
	behindShare = 0.01
	behindRTT   = 0.02
)

// EmulatorBehind says how the emulator fell behind over c's completed
// repetitions on link n: more than 1% of its packets left late and the
// latest by more than 2% of the round trip (1 ms on a link without
// delay), so the cell was measured on a slower link than the one set.
// "" when it kept up, or on the kernel's netem (which counts no late
// packets).
func EmulatorBehind(c *Cell, n *Net) string {
	l := CellLink(c)
	if l == nil || n == nil {
		return ""
	}
	p, late := l.Up.Packets+l.Down.Packets, l.Up.Late+l.Down.Late
	worst := max(l.Up.MaxLateSeconds, l.Down.MaxLateSeconds)
	if p == 0 || float64(late) <= behindShare*float64(p) || worst <= max(behindRTT*n.RTTSeconds(), 0.001) {
		return ""
	}
	return fmt.Sprintf("%d of %d packets left the emulator late, the latest by %.1f ms", late, p, 1e3*worst)
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

// machineRules are the explanations of a departure that name the machine,
// not the link: its CPU or the emulator's.
var machineRules = []string{"cpu-bound", "generator-bound", "emulator-behind", "emulator-bound"}

// MachineBound reports whether, across res's emulated link, the machine
// rather than the link held c: the link binds c's transport (it is slower
// than the transport's own speed on this machine, Results.Crossover, where
// that is known) and yet c's departure from the bound is explained by a
// CPU or by the emulator, or, within the bound's tolerance, its median
// repetition found a side's CPU saturated (Repetition.Bottleneck) or the
// emulator fell behind over it (EmulatorBehind: it crossed a slower link
// than the one set). Such a
// cell's difference from its baseline is the machine's: the link would
// have held them alike. Above the crossover the transport's own cost sets
// the figure, and a saturated CPU is that cost, not the machine's.
func MachineBound(c *Cell, res *Results) bool {
	if c == nil || res == nil || res.Settings.Net == nil || c.Bound == nil || !linkBinds(c, res) {
		return false
	}
	if c.Bound.Departs {
		for _, r := range machineRules {
			if strings.HasPrefix(c.Bound.Explained, r+":") {
				return true
			}
		}
		return false
	}
	return MedianRepetition(c).Bottleneck != BottleneckNone || EmulatorBehind(c, res.Settings.Net) != ""
}

// linkBinds says res's link is slower than c's transport on this machine
// without it (Results.Crossover: one download's rate for transfers,
// small-concurrent's requests per second for request rates); true where
// that is not known.
func linkBinds(c *Cell, res *Results) bool {
	for _, x := range res.Crossover {
		if x.Protocol != c.Protocol {
			continue
		}
		switch {
		case c.Metric == MetricBytesPerSecond && x.BytesPerSecond > 0 && c.Bound.Value > 0:
			return c.Bound.Value < x.BytesPerSecond
		case c.Metric == MetricRequestsPerSecond && x.RequestsPerSecond > 0 && c.Bound.Value > 0:
			return c.Bound.Value < x.RequestsPerSecond
		}
	}
	return true
}
