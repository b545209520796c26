package analysis

import (
	"fmt"
	"math"
	"strings"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

// ackSpread is how far below Mathis et al.'s bound (constant 1.22: every
// packet acknowledged) the same model puts a receiver that delays its
// acknowledgements, one for two packets (constant 0.87): a factor of
// sqrt(2), the model's own range.
var ackSpread = math.Sqrt2

// lossBand is the range of rates the loss model m allows for cell c on
// link n: from m.Rate over ackSpread (the acknowledgement policy) to
// m.Rate, widened by what the loss rate seen varies by over the transfer's
// loss events (N events: ±1.96/sqrt(N) on p, half that on a rate that
// goes as 1/sqrt(p)). Each input of the model sets a part; none is a
// factor of two chosen to fit.
func lossBand(c *results.Cell, sc plan.Scenario, n *results.Net, m linkmodel.LossModel) (lo, hi float64) {
	// The loss events the median transfer's packets met at random loss p.
	p, m1 := linkmodel.LinkLoss(n, scenariospec.Of(&sc).Upload), MedianRepetition(c)
	bytes := float64(m1.Bytes)
	if bytes <= 0 {
		bytes = m1.Value * m1.Seconds
	}
	events := p * bytes / linkmodel.PacketPayload(c.Protocol == protoname.H3)
	if events < 1 {
		return 0, 0 // no loss event seen: the model has nothing to say
	}
	seen := math.Exp(1.96 / (2 * math.Sqrt(events)))
	return m.Rate / ackSpread / seen, m.Rate * seen
}

// cellInterval is c's own 95% interval from the values of the
// repetitions that count (the median alone with fewer than two).
func cellInterval(c *results.Cell) (lo, hi float64) {
	var logs []float64
	for _, r := range c.Repetitions {
		if Counts(r) {
			logs = append(logs, math.Log(r.Value))
		}
	}
	lo, hi = c.Median, c.Median
	if iv := LogInterval(logs); iv.Pairs >= 2 {
		lo, hi = min(iv.Low, lo), max(iv.High, hi)
	}
	return lo, hi
}

// withinBounds says c's interval meets the model's band [lo, hi].
func withinBounds(c *results.Cell, lo, hi float64) bool {
	clo, chi := cellInterval(c)
	return hi > 0 && clo <= hi && chi >= lo
}

// transferBound is a transfer's bound on link n: the link's rate less
// c's framing (linkmodel.LinkBound), with the loss model of the controller
// that sent its data beside it on a lossy link; nil where no bound is
// known.
func transferBound(c *results.Cell, sc plan.Scenario, n *results.Net) *results.Bound {
	rate := linkmodel.LinkBound(n, scenariospec.Of(&sc).Upload, c.Protocol)
	if rate <= 0 {
		return nil
	}
	dir, set := "down", n.Down.RateBitsPerSecond
	if scenariospec.Of(&sc).Upload {
		dir, set = "up", n.Up.RateBitsPerSecond
	}
	b := &results.Bound{Value: rate, Basis: fmt.Sprintf("the link's rate %s (%s) less each transport's framing", dir, units.BitsPerSecond(set))}
	if set <= 0 {
		b.Basis = fmt.Sprintf("the link's calibrated TCP goodput %s (%s; no rate set)", dir, units.BitsPerSecond(rate*8))
	}
	if m, ok := predictLoss(c, sc, n, rate); ok {
		b.Loss = &results.LossBound{Controller: m.Controller, Value: m.Rate, Limited: m.LossLimited, Basis: m.Basis}
	}
	return b
}

// predictLoss is what the loss response of the controller that sent c's
// data predicts on link n whose bound for c is link bytes per second
// (linkmodel.PredictLoss); ok is false where no model applies (no loss in the
// data's direction, a controller not recorded or unknown, not a transfer).
func predictLoss(c *results.Cell, sc plan.Scenario, n *results.Net, link float64) (linkmodel.LossModel, bool) {
	if !scenariospec.Transfer(sc.Metric) {
		return linkmodel.LossModel{}, false
	}
	quic := c.Protocol == protoname.H3
	return linkmodel.PredictLoss(linkmodel.Controller(c.Protocol, n), link, linkmodel.PacketPayload(quic), linkmodel.RTTSeconds(n), linkmodel.LinkLoss(n, scenariospec.Of(&sc).Upload))
}

// lossExplanation explains a transfer cell below its bound on a lossy link
// when the loss response of the controller that sent its data
// (linkmodel.PredictLoss) predicts a rate below the link's and the cell within
// modelTolerance of it; "" otherwise (a BBR sender, which the model puts at
// the link; a cell far from the prediction; a scenario the model does not
// cover). Where the other family of transports ran a controller that does
// not back off on loss (BBR against quic-go's Cubic), the cause named is
// the controller, with the link spec that compares like with like.
func lossExplanation(c *results.Cell, sc plan.Scenario, n *results.Net) string {
	m, ok := predictLoss(c, sc, n, linkmodel.LinkBound(n, scenariospec.Of(&sc).Upload, c.Protocol))
	if !ok || !m.LossLimited {
		return ""
	}
	lo, hi := lossBand(c, sc, n, m)
	if !withinBounds(c, lo, hi) {
		return ""
	}
	text := fmt.Sprintf("the link drops %.1f%% of packets; %s backs off on each loss: its model (%s) predicts %s to %s (acknowledgement policy, loss events seen), the cell read %s",
		100*linkmodel.LinkLoss(n, scenariospec.Of(&sc).Upload), m.Controller, m.Basis, units.BitsPerSecond(lo*8), units.BitsPerSecond(hi*8), units.BitsPerSecond(c.Median*8))
	if why := ccMismatch(c, n, true); why != "" {
		return "congestion-control: " + text + "; " + why
	}
	return "losses: " + text
}

// ccMismatch says, for a cell whose controller backs off on loss, that
// the other family of transports ran one that does not, and (with offer)
// which link spec compares like with like; "" when both are alike or
// unknown.
func ccMismatch(c *results.Cell, n *results.Net, offer bool) string {
	other := protoname.H3
	if c.Protocol == protoname.H3 {
		other = protoname.H1
	}
	mine, otherCC := linkmodel.Controller(c.Protocol, n), linkmodel.Controller(other, n)
	lb, known := linkmodel.LossBased(mine)
	olb, oknown := linkmodel.LossBased(otherCC)
	if !known || !oknown || lb == olb || !lb {
		return ""
	}
	if c.Protocol == protoname.H3 {
		why := fmt.Sprintf("TCP here ran %s, which does not back off on random loss: the gap to h1 and h2 is the congestion controllers', not HTTP/3's against HTTP/2's", otherCC)
		if offer {
			why += fmt.Sprintf("; the link spec %s runs TCP with Cubic too, like with like (cc=reno, loss-based as well, where the kernel allows only that)", withCC(n.Spec, "cubic"))
		}
		return why
	}
	return fmt.Sprintf("QUIC here ran %s, which does not back off on random loss: the gap is the congestion controllers'", otherCC)
}

// withCC is spec with its congestion control set to cc.
func withCC(spec, cc string) string {
	var keep []string
	for _, f := range strings.Split(spec, ",") {
		if !strings.HasPrefix(f, "cc=") && f != "" {
			keep = append(keep, f)
		}
	}
	return strings.Join(append(keep, "cc="+cc), ",")
}

// holExplanation explains a head-of-line cell above its bound of one
// round trip when the queue model predicts it: a small request waits at
// most one round trip plus what the bulk download holds ahead of it. At
// the link that is the standing queue its sender keeps: a loss-based one
// (Cubic, Reno, quic-go) fills the drop-tail queue, BBR keeps at most one
// bandwidth-delay product beyond the pipe (its window gain of 2). Over
// HTTP/2 the response also waits behind what the shared TCP connection
// already holds unsent in its socket, about one window more (Linux sizes
// the send buffer at twice the window); h1 asks on a second connection,
// and quic-go interleaves streams before packets are sent. It explains
// the cell when the download ran at half the link or more (a queue forms
// only behind a sender that fills the link) and the cell's interval
// reaches down to that ceiling; "" otherwise.
func holExplanation(c *results.Cell, n *results.Net) string {
	m := MedianRepetition(c)
	link, rtt := linkmodel.LinkGoodput(n, false), linkmodel.RTTSeconds(n)
	if m.Seconds <= 0 || m.BulkBytes <= 0 || link <= 0 {
		return ""
	}
	bulk := float64(m.BulkBytes) / m.Seconds
	bdp := link * rtt
	queue := queueBytes(n.Down)
	cc := linkmodel.Controller(c.Protocol, n)
	if lossBased, known := linkmodel.LossBased(cc); known && !lossBased {
		queue = min(queue, bdp)
	}
	ahead := queue
	if isHTTP2(c) {
		ahead += bdp + queue
	}
	ceiling := rtt + ahead/link
	if lo, _ := cellInterval(c); bulk < link/2 || lo > ceiling {
		return ""
	}
	return fmt.Sprintf("head-of-line: the small requests queue behind the bulk download (at %s, %.0f%% of the link; %s): a round trip and up to %.0f KB ahead at the link's goodput predict at most %.0f ms, the cell read %.0f ms",
		units.BitsPerSecond(bulk*8), 100*bulk/link, cc, ahead/1e3, ceiling*1e3, c.Median*1e3)
}

// queueBytes is a direction's drop-tail limit in bytes: its byte limit,
// or its packet limit (defaults.QueuePackets when unset) of full
// packets, whichever is smaller.
func queueBytes(d results.NetDirection) float64 {
	pk := d.QueuePackets
	if pk <= 0 {
		pk = defaults.QueuePackets
	}
	q := float64(pk * linkmodel.MTU)
	if d.QueueBytes > 0 {
		q = min(q, float64(d.QueueBytes))
	}
	return q
}

// congestionControl: a transfer behind the baseline across a lossy link
// whose own congestion control backs off on loss, where the baseline's
// does not (quic-go's Cubic against TCP's BBR), and whose loss bound
// predicts the cell (lossExplanation's model): the gap is the
// controllers', and the link spec with cc=cubic measures like with like.
func congestionControl(s *subject) *results.Finding {
	n := s.set.Net
	if n == nil || !s.transfer() || !s.slow() {
		return nil
	}
	why := ccMismatch(s.c, n, false)
	m, ok := predictLoss(s.c, s.sc, n, linkmodel.LinkBound(n, scenariospec.Of(&s.sc).Upload, s.c.Protocol))
	if why == "" || !ok || !m.LossLimited {
		return nil
	}
	lo, hi := lossBand(s.c, s.sc, n, m)
	if !withinBounds(s.c, lo, hi) {
		return nil
	}
	return &results.Finding{
		Evidence: fmt.Sprintf("%s: %s backs off on the link's %.1f%% loss, and its model (%s) predicts %s to %s, where the %s measured lies; %s",
			gap(s.c), m.Controller, 100*linkmodel.LinkLoss(n, scenariospec.Of(&s.sc).Upload), m.Basis, units.BitsPerSecond(lo*8), units.BitsPerSecond(hi*8), units.BitsPerSecond(s.c.Median*8), why),
		Figures: figures(s.c, []results.Figure{{Name: "measured", Value: s.c.Median, Unit: "bytes/s"}, {Name: "predicted low", Value: lo, Unit: "bytes/s"}, {Name: "predicted high", Value: hi, Unit: "bytes/s"},
			{Name: "link loss", Value: linkmodel.LinkLoss(n, scenariospec.Of(&s.sc).Upload)}}...),
		Fix: fmt.Sprintf("not a setting of the transport: quic-go has Cubic only; measure the link %s so that TCP backs off on loss as QUIC does, and the gap left is the protocols'", withCC(n.Spec, "cubic")),
	}
}
