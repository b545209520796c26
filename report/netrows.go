package report

import (
	"fmt"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

// netRows adds the rows of the network scenarios (cells timed in seconds):
// requests per second, and what each scenario records beside its time.
func (g *grid) netRows() {
	g.row("requests/s", func(c *results.Cell) string {
		m := medianRep(c)
		if m.Seconds <= 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f", float64(m.Requests-m.Errors.Total)/m.Seconds)
	})
	if g.has(func(m results.Repetition) bool { return m.Phases != nil }) {
		g.row("connect / TLS p50", func(c *results.Cell) string {
			p := medianRep(c).Phases
			if p == nil {
				return "-"
			}
			if p.TLS.Count == 0 {
				return dur(p.Connect.P50) + " / -"
			}
			return dur(p.Connect.P50) + " / " + dur(p.TLS.P50)
		})
		g.row("first byte p50", func(c *results.Cell) string {
			if p := medianRep(c).Phases; p != nil {
				return dur(p.TTFB.P50)
			}
			return "-"
		})
		g.row("resumed", func(c *results.Cell) string {
			m := medianRep(c)
			if m.Phases == nil {
				return "-"
			}
			return fmt.Sprintf("%d of %d", m.Phases.Resumed, m.Requests-m.Errors.Total)
		})
	}
	if g.has(func(m results.Repetition) bool { return m.ObjectLatency != nil }) {
		g.row("object p50 / p99", func(c *results.Cell) string {
			if l := medianRep(c).ObjectLatency; l != nil {
				return dur(l.P50) + " / " + dur(l.P99)
			}
			return "-"
		})
	}
	if g.has(func(m results.Repetition) bool { return m.BulkBytes > 0 }) {
		g.row("download beside", func(c *results.Cell) string {
			m := medianRep(c)
			if m.Seconds <= 0 {
				return "-"
			}
			return metricValue(results.MetricBytesPerSecond, float64(m.BulkBytes)/m.Seconds)
		})
	}
}

// has reports whether the median repetition of any measured cell of g
// satisfies f.
func (g *grid) has(f func(results.Repetition) bool) bool {
	for _, c := range g.cells {
		if c != nil && c.Skipped == "" && len(c.Repetitions) > 0 && f(medianRep(c)) {
			return true
		}
	}
	return false
}

// linkRows adds, across an emulated link (n), what the link did to each
// cell over its completed repetitions: the packets each way, the share the
// loss model dropped beside the share configured, and the share the queue
// (or the emulator) dropped when any.
func (g *grid) linkRows(n *results.Net) {
	if n == nil || !g.has(func(m results.Repetition) bool { return m.Link != nil }) {
		return
	}
	each := func(f func(l *results.RepetitionLink) string) func(c *results.Cell) string {
		return func(c *results.Cell) string {
			if l := c.LinkTotal; l != nil {
				return f(l)
			}
			return "-"
		}
	}
	g.row("link packets up/down", each(func(l *results.RepetitionLink) string {
		return fmt.Sprintf("%d/%d", l.Up.Packets, l.Down.Packets)
	}))
	g.row("link lost up/down (set "+pair(n.Up.Loss, n.Down.Loss)+")", each(func(l *results.RepetitionLink) string {
		return pair(lossFraction(l.Up), lossFraction(l.Down))
	}))
	dropped := false
	for _, c := range g.cells {
		if c == nil {
			continue
		}
		if l := c.LinkTotal; l != nil && dropFraction(l.Up)+dropFraction(l.Down) > 0 {
			dropped = true
		}
	}
	if dropped {
		g.row("link queue drops up/down", each(func(l *results.RepetitionLink) string {
			return pair(dropFraction(l.Up), dropFraction(l.Down))
		}))
	}
}

// pair formats two fractions as percentages, up/down.
func pair(up, down float64) string {
	return fmt.Sprintf("%s/%s", percent(up), percent(down))
}

// percent formats a fraction as a percentage with the digits it needs:
// 0%, 0.04%, 1.2%, 12%.
func percent(f float64) string {
	switch p := f * 100; {
	case p == 0:
		return "0%"
	case p < 0.1:
		return fmt.Sprintf("%.2f%%", p)
	case p < 10:
		return fmt.Sprintf("%.1f%%", p)
	default:
		return fmt.Sprintf("%.0f%%", p)
	}
}

// boundRows adds, across an emulated link, each cell against the link's
// bound and, for transfers, what their rates left out: the time to the
// first body byte and the omitted start (handshakes, slow start) with its
// own rate.
func (g *grid) boundRows() {
	if g.has(func(m results.Repetition) bool { return m.Omit != nil }) {
		g.row("first byte / omitted", func(c *results.Cell) string {
			m := medianRep(c)
			if m.Omit == nil {
				return "-"
			}
			om := seconds(m.Omit.Seconds)
			if m.Omit.Seconds > 0 {
				om += " at " + metricValue(results.MetricBytesPerSecond, float64(m.Omit.Bytes)/m.Omit.Seconds)
			}
			if m.Omit.SteadySeconds == 0 {
				om += " (no steady part)"
			}
			return seconds(m.FirstByteSeconds) + " / " + om
		})
	}
	var any bool
	for _, c := range g.cells {
		any = any || (c != nil && c.Bound != nil)
	}
	if !any {
		return
	}
	g.row("of link bound", func(c *results.Cell) string {
		if c.Bound == nil {
			return "-"
		}
		s := shareText(c.Bound)
		if c.Bound.Unexplained {
			s += " unexplained"
		}
		return s
	})
	var lossy bool
	for _, c := range g.cells {
		lossy = lossy || (c != nil && c.Bound != nil && c.Bound.Loss != nil)
	}
	if lossy {
		g.row("of loss model", func(c *results.Cell) string {
			if c.Bound == nil || c.Bound.Loss == nil {
				return "-"
			}
			l := c.Bound.Loss
			return fmt.Sprintf("%.0f%% of %s (%s)", 100*l.Share, units.BitsPerSecond(l.Value*8), l.Controller)
		})
	}
}

// lossFraction is the fraction of the packets that entered the direction
// which the loss model dropped; 0 with no packets.
func lossFraction(c results.NetCounters) float64 { return fraction(c.Lost, c.Packets) }

// dropFraction is the fraction of the packets that entered the direction
// which the drop-tail queue or the emulator's delay line dropped.
func dropFraction(c results.NetCounters) float64 {
	return fraction(c.QueueDrops+c.Overflow, c.Packets)
}

func fraction(n, of int64) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}
