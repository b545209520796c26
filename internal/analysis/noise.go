package analysis

import (
	"math"
	"strings"

	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
)

// AAColumn names the A/A column of a scenario: the baseline transport
// measured a second time, as a column of its own, in the same rounds and
// under the same order rules as every other column. Its interval to the
// baseline is the run's noise floor: the two are the same thing, so any
// difference it shows is the machine's and the method's.
func AAColumn(baseline string) string { return baseline + " A/A" }

// SetAA sets each A/A cell's interval to its scenario's baseline cell in
// cells (as SetRatios does for the others), and summarises it.
func SetAA(aa, cells []results.Cell, baseline string) {
	base := map[string]*results.Cell{}
	for i, c := range cells {
		if c.Protocol == baseline && c.Skipped == "" {
			base[c.Scenario] = &cells[i]
		}
	}
	for i := range aa {
		c := &aa[i]
		SummariseCell(c)
		c.VsBaseline, c.Baseline, c.RatioToBaseline = nil, "", 0
		b := base[c.Scenario]
		if b == nil || c.Skipped != "" {
			continue
		}
		c.Baseline = baseline
		if b.Median > 0 && c.Median > 0 {
			c.RatioToBaseline = c.Median / b.Median
			if LowerIsBetter(c.Metric) {
				c.RatioToBaseline = b.Median / c.Median
			}
		}
		if iv := ratioInterval(c, b); iv.Pairs > 0 {
			c.VsBaseline = &iv
		}
	}
}

// Kinds of work, for the noise floor: what one A/A column measures holds
// for cells of its own kind (a transfer's spread says nothing of a
// request load's).
const (
	KindTransfer = "transfer"     // MetricBytesPerSecond
	KindRequests = "request load" // MetricRequestsPerSecond, not gRPC
	KindGRPC     = "gRPC"         // the gRPC scenarios
	KindTimed    = "timed"        // MetricSeconds: the network scenarios
)

// KindOf is the kind of work of a scenario measuring metric, from
// plan's scenario table; a variant scenario ("download:tuned") is of its
// base's kind, a user's request a request load.
func KindOf(scenario, metric string) string {
	switch metric {
	case results.MetricBytesPerSecond:
		return KindTransfer
	case results.MetricSeconds:
		return KindTimed
	}
	base, _, _ := strings.Cut(scenario, vocab.VariantSep)
	if sc, ok := plan.ScenarioOf(nil, base); ok && scenariospec.Of(&sc).RPC {
		return KindGRPC
	}
	return KindRequests
}

// NoiseFloor is what a run's A/A cells of one kind of work say about the
// intervals of that kind.
type NoiseFloor struct {
	// Kind is the kind of work (KindOf); "" for the whole run.
	Kind string
	// Cells counts the A/A cells with an interval (two pairs or more).
	Cells int
	// Resolution is the largest relative distance from 1 of their 95%
	// intervals (0.06: [0.95, 1.06]): a difference beyond it would have
	// been told from none; 0 without an A/A interval.
	Resolution float64
	// FalseCalls counts the A/A cells called slower or faster: each is a
	// verdict where there is no difference (at 95%, about one in twenty is
	// expected by chance).
	FalseCalls int
}

// NoiseFloor summarises r's A/A cells, every kind together.
func AllFloor(r *results.Results) NoiseFloor {
	var n NoiseFloor
	for _, c := range r.AA {
		n.add(c)
	}
	return n
}

// NoiseFloors summarises r's A/A cells per kind of work, in the order
// of the A/A cells.
func NoiseFloors(r *results.Results) []NoiseFloor {
	var out []NoiseFloor
	for _, c := range r.AA {
		k := KindOf(c.Scenario, c.Metric)
		i := 0
		for i < len(out) && out[i].Kind != k {
			i++
		}
		if i == len(out) {
			out = append(out, NoiseFloor{Kind: k})
		}
		out[i].add(c)
	}
	return out
}

// FloorOf is the noise floor of c's kind of work in r, and false when no
// A/A cell of that kind has an interval.
func FloorOf(r *results.Results, c *results.Cell) (NoiseFloor, bool) {
	k := KindOf(c.Scenario, c.Metric)
	for _, n := range NoiseFloors(r) {
		if n.Kind == k && n.Cells > 0 {
			return n, true
		}
	}
	return NoiseFloor{}, false
}

// add counts A/A cell c in n.
func (n *NoiseFloor) add(c results.Cell) {
	iv := c.VsBaseline
	if iv == nil || iv.Pairs < 2 || iv.Low <= 0 {
		return
	}
	n.Cells++
	n.Resolution = math.Max(n.Resolution, math.Max(iv.High-1, 1-iv.Low))
	if iv.Verdict == results.VerdictSlower || iv.Verdict == results.VerdictFaster {
		n.FalseCalls++
	}
}

// WithinFloor reports whether c is called slower or faster by less than
// floor resolves: its ratio lies closer to 1 than the A/A interval of its
// kind reaches, so the A/A column (no difference at all) spread as far.
func WithinFloor(c *results.Cell, floor NoiseFloor) bool {
	iv := c.VsBaseline
	if iv == nil || floor.Cells == 0 || iv.Ratio <= 0 {
		return false
	}
	if iv.Verdict != results.VerdictSlower && iv.Verdict != results.VerdictFaster {
		return false
	}
	return math.Abs(iv.Ratio-1) < floor.Resolution
}
