package report

import (
	"fmt"

	"github.com/httpvs/httpvs/matrix"
)

// netRows adds the rows of the network scenarios (cells timed in seconds):
// requests per second, and what each scenario records beside its time.
func (g *grid) netRows() {
	g.row("requests/s", func(c *matrix.Cell) string {
		m := matrix.MedianRepetition(c)
		if m.Seconds <= 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f", float64(m.Requests-m.Errors.Total)/m.Seconds)
	})
	if g.has(func(m matrix.Repetition) bool { return m.Phases != nil }) {
		g.row("connect / TLS p50", func(c *matrix.Cell) string {
			p := matrix.MedianRepetition(c).Phases
			if p == nil {
				return "-"
			}
			if p.TLS.Count == 0 {
				return dur(p.Connect.P50) + " / -"
			}
			return dur(p.Connect.P50) + " / " + dur(p.TLS.P50)
		})
		g.row("first byte p50", func(c *matrix.Cell) string {
			if p := matrix.MedianRepetition(c).Phases; p != nil {
				return dur(p.TTFB.P50)
			}
			return "-"
		})
		g.row("resumed", func(c *matrix.Cell) string {
			m := matrix.MedianRepetition(c)
			if m.Phases == nil {
				return "-"
			}
			return fmt.Sprintf("%d of %d", m.Phases.Resumed, m.Requests-m.Errors.Total)
		})
	}
	if g.has(func(m matrix.Repetition) bool { return m.ObjectLatency != nil }) {
		g.row("object p50 / p99", func(c *matrix.Cell) string {
			if l := matrix.MedianRepetition(c).ObjectLatency; l != nil {
				return dur(l.P50) + " / " + dur(l.P99)
			}
			return "-"
		})
	}
	if g.has(func(m matrix.Repetition) bool { return m.BulkBytes > 0 }) {
		g.row("download beside", func(c *matrix.Cell) string {
			m := matrix.MedianRepetition(c)
			if m.Seconds <= 0 {
				return "-"
			}
			return Value(matrix.MetricBytesPerSecond, float64(m.BulkBytes)/m.Seconds)
		})
	}
}

// has reports whether the median repetition of any measured cell of g
// satisfies f.
func (g *grid) has(f func(matrix.Repetition) bool) bool {
	for _, c := range g.cells {
		if c != nil && c.Skipped == "" && len(c.Repetitions) > 0 && f(matrix.MedianRepetition(c)) {
			return true
		}
	}
	return false
}
