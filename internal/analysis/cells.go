package analysis

import (
	"math"
	"slices"

	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// StableHalfWidth is the largest relative half-width of a ratio's interval
// for a cell to count as stable: its ratio is known within ±10%.
const StableHalfWidth = vocab.StableHalfWidth

// ServerFigure returns m's server figure f and whether it may be used: it
// is known (the server's counters were read) and the server's counts agreed
// with the client's.
func ServerFigure(m results.Repetition, f *float64) (float64, bool) {
	if f == nil || m.ServerUnreliable != "" {
		return 0, false
	}
	return *f, true
}

// Counts reports whether r is a measurement the cell's figures use: its
// median, min and max, its median repetition, the rounds paired for its
// interval, and the diagnosis' bounds. It is one when r ran to its end
// (an interrupted repetition measured the interrupt), no request or
// transfer in it failed, and it read above zero. A repetition with a
// failure measured other work than a clean one (a refused connection is
// fast, a timeout stalls a slot) and its failures are in Cell.Errors,
// which the errors finding reports; zero means nothing finished, a time
// or rate that was not measured, and has no ratio.
func Counts(r results.Repetition) bool {
	return !r.Interrupted && r.Errors.Total == 0 && r.Value > 0
}

// HalfWidth is iv's half-width relative to Ratio; +Inf when
// there is no interval.
func HalfWidth(iv results.Interval) float64 {
	if iv.Pairs < 2 || iv.Ratio <= 0 {
		return math.Inf(1)
	}
	return (iv.High - iv.Low) / 2 / iv.Ratio
}

// Stable reports whether iv is within StableHalfWidth.
func Stable(iv results.Interval) bool { return HalfWidth(iv) <= StableHalfWidth }

// Ratio is c's ratio to its baseline as the verdict states it: the
// geometric mean of the rounds' paired ratios (VsBaseline) where a round
// paired, the ratio of the medians (RatioToBaseline) otherwise; 0 where there
// is no baseline cell. Every renderer prints this one figure per cell.
func Ratio(c *results.Cell) float64 {
	if c.VsBaseline != nil && c.VsBaseline.Pairs > 0 {
		return c.VsBaseline.Ratio
	}
	return c.RatioToBaseline
}

// LowerIsBetter reports whether a smaller Value of metric is better.
func LowerIsBetter(metric string) bool { return metric == results.MetricSeconds }

// BaselineOf is the transport a run over protocols compares the others
// with: h1 when it is among them; else h1-tls when every transport is over
// TLS or QUIC (h1-tls, h2, h3: the web's real choice) and h1-tls is among
// them; else the first listed.
func BaselineOf(protocols []string) string {
	if len(protocols) == 0 || slices.Contains(protocols, protoname.H1) {
		return protoname.H1
	}
	secure := true
	for _, p := range protocols {
		if !protoname.TLS(p) {
			secure = false
		}
	}
	if secure && slices.Contains(protocols, protoname.H1TLS) {
		return protoname.H1TLS
	}
	return protocols[0]
}

// WithoutGo says whether c can speak for its transport without Go: a
// server not written in Go (caddy is net/http and quic-go, as httpvs's
// server), a ratio to h1, and an interval of at least two rounds no wider
// than ±50%.
func WithoutGo(c *results.ReferenceCell) bool {
	return c.VsH1 != nil && c.Median != 0 && c.Language != "" && c.Language != "Go" &&
		c.VsH1.Pairs >= 2 && HalfWidth(*c.VsH1) <= 0.5
}

// ReferenceValues returns c's rounds as repetitions (Round, Value; an Errors count
// for failed ones), so intervals pair them as they pair cells' rounds.
func ReferenceValues(c results.ReferenceCell) results.Cell {
	out := results.Cell{Scenario: c.Scenario, Protocol: c.Protocol, Metric: c.Metric}
	for i, v := range c.Rounds {
		r := results.Repetition{Round: i + 1, Value: v}
		if v <= 0 {
			r.Errors.Total = 1
		}
		out.Repetitions = append(out.Repetitions, r)
	}
	return out
}
