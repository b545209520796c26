package analysis

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// The classes of a cell against its link (BoundClass).
const (
	ClassAtLink      = vocab.ClassAtLink
	ClassAtLossBound = vocab.ClassAtLossBound
	ClassUnexplained = vocab.ClassUnexplained
	ClassBeyond      = vocab.ClassBeyond
	ClassUndecided   = vocab.ClassUndecided
)

// Class places the cell against its link in a few words: ClassAtLossBound
// where the loss model of its congestion control predicts it (Explained
// by "losses" or "congestion-control"), ClassUndecided where its median
// is below the link but its interval reaches it, ClassAtLink within the
// bound's tolerance, ClassBeyond above the bound (a measurement
// defect), ClassUnexplained where nothing accounts for a departure, or
// "below the link: RULE" where another rule does.
func BoundClass(b *results.Bound) string {
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
func EmulatorBehind(c *results.Cell, n *results.Net) string {
	l := CellLink(c)
	if l == nil || n == nil {
		return ""
	}
	p, late := l.Up.Packets+l.Down.Packets, l.Up.Late+l.Down.Late
	worst := max(l.Up.MaxLateSeconds, l.Down.MaxLateSeconds)
	if p == 0 || float64(late) <= behindShare*float64(p) || worst <= max(behindRTT*linkmodel.RTTSeconds(n), 0.001) {
		return ""
	}
	return fmt.Sprintf("%d of %d packets left the emulator late, the latest by %.1f ms", late, p, 1e3*worst)
}

// machineRules are the explanations of a departure that name the machine,
// not the link: its CPU or the emulator's.
var machineRules = []string{"cpu-bound", "machine-bound", "generator-bound", "emulator-behind", "emulator-bound"}

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
func MachineBound(c *results.Cell, res *results.Results) bool {
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
	return MedianRepetition(c).Bottleneck != results.BottleneckNone || EmulatorBehind(c, res.Settings.Net) != ""
}

// linkBinds says res's link is slower than c's transport on this machine
// without it (Results.Crossover: one download's rate for transfers,
// small-concurrent's requests per second for request rates); true where
// that is not known.
func linkBinds(c *results.Cell, res *results.Results) bool {
	for _, x := range res.Crossover {
		if x.Protocol != c.Protocol {
			continue
		}
		switch {
		case c.Metric == results.MetricBytesPerSecond && x.BytesPerSecond > 0 && c.Bound.Value > 0:
			return c.Bound.Value < x.BytesPerSecond
		case c.Metric == results.MetricRequestsPerSecond && x.RequestsPerSecond > 0 && c.Bound.Value > 0:
			return c.Bound.Value < x.RequestsPerSecond
		}
	}
	return true
}

// MedianRepetition returns the repetition, of those that count
// (Counts), whose value is the cell's median (the lower middle
// one for an even count: a repetition, not a mean of two): the one whose
// other figures a report shows beside the median. The zero Repetition
// when none counts.
func MedianRepetition(c *results.Cell) results.Repetition {
	var done []results.Repetition
	for _, r := range c.Repetitions {
		if Counts(r) {
			done = append(done, r)
		}
	}
	if len(done) == 0 {
		return results.Repetition{}
	}
	slices.SortStableFunc(done, func(a, b results.Repetition) int { return cmp.Compare(a.Value, b.Value) })
	return done[(len(done)-1)/2]
}

// CellLink sums the link counters of c's completed (not interrupted)
// repetitions; nil when none has them.
func CellLink(c *results.Cell) *results.RepetitionLink {
	var sum *results.RepetitionLink
	for _, r := range c.Repetitions {
		if r.Link == nil || r.Interrupted {
			continue
		}
		if sum == nil {
			sum = &results.RepetitionLink{}
		}
		addCounters(&sum.Up, r.Link.Up)
		addCounters(&sum.Down, r.Link.Down)
	}
	return sum
}

// add adds o's counts to c's (the largest MaxLateSeconds and Largest).
func addCounters(c *results.NetCounters, o results.NetCounters) {
	c.Packets += o.Packets
	c.Bytes += o.Bytes
	c.Lost += o.Lost
	c.QueueDrops += o.QueueDrops
	c.Overflow += o.Overflow
	c.Delivered += o.Delivered
	c.Late += o.Late
	c.MaxLateSeconds = max(c.MaxLateSeconds, o.MaxLateSeconds)
	c.Largest = max(c.Largest, o.Largest)
}
