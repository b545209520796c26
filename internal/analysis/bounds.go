package analysis

import (
	"fmt"
	"math"

	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
	"github.com/httpvs/httpvs/webpage"
)

// Tolerances of the bounds: how far a cell may lie from its bound before
// it departs. Below the bound, a transfer may lose what TCP's and QUIC's
// headers and ACK clocking cost against the calibration's one TCP stream
// (20%: the range 80-105% of goodput is the link's); a closed loop of
// small requests counts about 1/LinkWindowRTTs less than it ran (10%); a time
// may exceed its round trips by the server's and the handshakes' CPU
// (10% and timeSlack). Above the bound nothing may go further than the
// calibration's own error (5%).
const (
	transferBelow = 0.80
	requestsBelow = 0.90
	timeOver      = 1.10
	// pageOver is page-load's: its bound is a model of slow start that
	// leaves out delayed ACKs, pacing and the server's scheduling of 49
	// responses; the margin covers what the transports read against it
	// (bench/replay and docs/links.md's records).
	pageOver    = 1.5
	beyondBound = 1.05
	timeSlack   = 0.010 // seconds
)

// Bounds holds every measured cell of res against its emulated link, when
// the run crossed one (Settings.Net): Cell.Bound, nil elsewhere.
func Bounds(res *results.Results) {
	n := res.Settings.Net
	for i := range res.Cells {
		c := &res.Cells[i]
		c.Bound = nil
		if n == nil || c.Skipped != "" || c.Median <= 0 || c.Knobs != "" {
			continue
		}
		sc, ok := plan.ScenarioOf(&res.Settings, c.Scenario)
		if !ok || (scenariospec.Of(&sc).PageLoad() && ownPage(res)) {
			continue // the model's page is page-load's own, not the user's
		}
		b := boundOf(c, sc, n)
		if b == nil {
			continue
		}
		place(b, c)
		if b.Loss != nil {
			b.Loss.Share = c.Median / b.Loss.Value
		}
		switch {
		case b.Departs:
			b.Explained = explainDeparture(c, sc, n, b)
			b.Unexplained = b.Explained == ""
		case b.Share < transferBelow && scenariospec.Transfer(sc.Metric):
			// Its interval reaches the link, its median does not: the
			// loss model may still place it; else too few rounds to say.
			b.Explained = lossExplanation(c, sc, n)
			b.Undetermined = b.Explained == ""
		}
		c.Bound = b
	}
}

// boundOf is the bound of c's scenario on link n; nil for a scenario
// without one (request bodies or headers the link's rate would share with
// the round trips in ways this model does not follow, gRPC's native column).
func boundOf(c *results.Cell, sc plan.Scenario, n *results.Net) *results.Bound {
	rtt := linkmodel.RTTSeconds(n)
	if rtt <= 0 {
		return nil
	}
	switch {
	case scenariospec.Transfer(sc.Metric):
		return transferBound(c, sc, n)
	case scenariospec.Of(&sc).ColdStart():
		k, why := linkmodel.ColdRTTs(c.Protocol, scenariospec.Of(&sc).Resume)
		if k == 0 {
			return nil
		}
		return &results.Bound{Value: float64(k) * rtt, Basis: fmt.Sprintf("%d round trips (%s) of %.1f ms", k, why, rtt*1e3)}
	case scenariospec.Of(&sc).PageLoad():
		return linkmodel.PageBound(c.Protocol, n)
	case scenariospec.Of(&sc).HeadOfLine():
		return &results.Bound{Value: rtt, Basis: fmt.Sprintf("one round trip of %.1f ms: no request returns sooner", rtt*1e3)}
	case scenariospec.Of(&sc).User():
		return requestBound(c, sc, n, rtt)
	case scenariospec.Of(&sc).Engine() && scenariospec.Of(&sc).Body == 0 && scenariospec.Of(&sc).Headers.Count == 0 && c.Protocol != vocab.NativeColumn:
		streams := float64(scenariospec.Of(&sc).Streams)
		if m := MedianRepetition(c); m.Lowered != "" && m.Streams > 0 {
			streams = float64(m.Streams) // the server allowed fewer
		}
		return &results.Bound{Value: streams / rtt, Basis: fmt.Sprintf("%.0f in flight per %.1f ms round trip", streams, rtt*1e3)}
	}
	return nil
}

// place sets b's share of c's median and its interval from the
// repetitions, and whether it departs.
func place(b *results.Bound, c *results.Cell) {
	var logs []float64
	for _, r := range c.Repetitions {
		if Counts(r) {
			logs = append(logs, math.Log(r.Value/b.Value))
		}
	}
	b.Share = c.Median / b.Value
	b.Low, b.High = b.Share, b.Share
	if iv := LogInterval(logs); iv.Pairs >= 2 {
		b.Low, b.High = math.Min(iv.Low, b.Share), math.Max(iv.High, b.Share)
	}
	sc, _ := plan.ScenarioOf(nil, c.Scenario)
	if LowerIsBetter(c.Metric) {
		over := timeOver
		if scenariospec.Of(&sc).PageLoad() {
			over = pageOver
		}
		b.Faster = b.High < 1/beyondBound
		slack := timeSlack / b.Value
		b.Departs = b.Faster || b.Low > over+slack
		return
	}
	below := requestsBelow
	if scenariospec.Transfer(sc.Metric) {
		below = transferBelow
	}
	// A median beyond the bound is a defect to find whatever the spread:
	// the link's rate is exact.
	b.Faster = b.Low > beyondBound || (scenariospec.Transfer(sc.Metric) && b.Share > beyondBound)
	b.Departs = b.Faster || b.High < below
}

// explainingRules are the diagnosis rules whose finding accounts for a
// cell below its link's bound.
// quic-losses is not among them: on a lossy link it fires whatever the
// cell read; the loss model (lossExplanation) decides instead.
var explainingRules = []string{"errors", "concurrency-lowered", "machine-bound", "generator-bound", "window-limited", "emulator-bound", "h2-flow-blocked", "quic-flow-blocked"}

// explainDeparture says what accounts for c's departure from its bound b,
// or "" when nothing does: each explanation is a model's prediction
// compared with the cell (losses: lossExplanation; head-of-line:
// holExplanation), or a finding that measured its cause. A figure beyond
// the bound is never explained.
func explainDeparture(c *results.Cell, sc plan.Scenario, n *results.Net, b *results.Bound) string {
	if b.Faster {
		return ""
	}
	if scenariospec.Of(&sc).HeadOfLine() {
		return holExplanation(c, n)
	}
	for _, name := range explainingRules {
		for _, f := range c.Findings {
			if f.Rule == name {
				return f.Rule + ": " + f.Evidence
			}
		}
	}
	m := MedianRepetition(c)
	if m.Bottleneck != results.BottleneckNone {
		return fmt.Sprintf("cpu-bound: the %s's CPU was saturated (client %.2f cores)", m.Bottleneck, m.ClientCores)
	}
	if why := lossExplanation(c, sc, n); why != "" {
		return why
	}
	if why := EmulatorBehind(c, n); why != "" && behindAccounts(c, sc, n, b) {
		return "emulator-behind: " + why
	}
	return ""
}

// behindAccounts says the emulator's lateness over c could account for
// its distance from b: if a share f of the packets left up to L late on a
// round trip R, no figure moved by more than f*L/R, so the cell must lie
// within that of its tolerance. A few packets a few milliseconds late do
// not explain a download at 13% of the link.
func behindAccounts(c *results.Cell, sc plan.Scenario, n *results.Net, b *results.Bound) bool {
	l := CellLink(c)
	p := l.Up.Packets + l.Down.Packets
	rtt := linkmodel.RTTSeconds(n)
	if p == 0 || rtt <= 0 {
		return false
	}
	slowdown := float64(l.Up.Late+l.Down.Late) / float64(p) * max(l.Up.MaxLateSeconds, l.Down.MaxLateSeconds) / rtt
	if LowerIsBetter(c.Metric) {
		over := timeOver
		if scenariospec.Of(&sc).PageLoad() {
			over = pageOver
		}
		return b.Share <= over*(1+slowdown)
	}
	below := requestsBelow
	if scenariospec.Transfer(sc.Metric) {
		below = transferBelow
	}
	return b.Share >= below*(1-slowdown)
}

// requestBound is a user's request's bound: its requests in flight per
// round trip, or, when its responses are big, the link's goodput over a
// response's bytes, whichever is lower. Requests with bodies get none:
// their upload shares the link.
func requestBound(c *results.Cell, sc plan.Scenario, n *results.Net, rtt float64) *results.Bound {
	if scenariospec.Of(&sc).Body > 0 {
		return nil
	}
	b := &results.Bound{Value: float64(scenariospec.Of(&sc).Streams) / rtt, Basis: fmt.Sprintf("%d in flight per %.1f ms round trip", scenariospec.Of(&sc).Streams, rtt*1e3)}
	if rate := linkmodel.LinkGoodput(n, false); rate > 0 && c.ResponseBytes > 0 && rate/float64(c.ResponseBytes) < b.Value {
		b.Value = rate / float64(c.ResponseBytes)
		b.Basis = fmt.Sprintf("%s over %d-byte responses", goodputBasis(n, rate), c.ResponseBytes)
	}
	return b
}

// goodputBasis names goodput, what linkmodel.LinkGoodput took down n (bytes
// per second): the configured rate less TCP's framing, or the
// calibration's goodput where no rate is set.
func goodputBasis(n *results.Net, goodput float64) string {
	if rate, _ := linkmodel.LinkDirection(n, false); rate > 0 {
		return fmt.Sprintf("the link's rate down less TCP's framing (%s)", units.BitsPerSecond(goodput*8))
	}
	return fmt.Sprintf("the link's calibrated TCP goodput down (%s; no rate set)", units.BitsPerSecond(goodput*8))
}

// ownPage says whether the run loaded a user's page (run --page) rather
// than page-load's, webpage.Median: its browser cells name it.
func ownPage(res *results.Results) bool {
	median := webpage.Median().Source
	for _, b := range res.Browser {
		if b.Page != "" && b.Page != median {
			return true
		}
	}
	return false
}
