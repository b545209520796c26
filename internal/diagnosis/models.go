package diagnosis

import (
	"fmt"
	"strings"

	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

// modelTolerance is how close a model's prediction must come to a cell
// for the model to explain it: within a factor of 2 either way (from half
// the prediction to twice it). The loss bound is an average over a
// sawtooth (Mathis et al. 1997 report it within about that of measured
// Reno), and Cubic grows faster than Reno between losses on long round
// trips: a closer tolerance would refuse the model where it holds.
const modelTolerance = 2.0

// within says measured lies within modelTolerance of predicted.
func within(measured, predicted float64) bool {
	return predicted > 0 && measured >= predicted/modelTolerance && measured <= predicted*modelTolerance
}

// transferBound is a transfer's bound on link n: the link's rate less
// c's framing (linkmodel.LinkBound), with the loss model of the controller
// that sent its data beside it on a lossy link; nil where no bound is
// known.
func transferBound(c *results.Cell, sc plan.Scenario, n *results.Net) *results.Bound {
	rate := linkmodel.LinkBound(n, sc.Upload(), c.Protocol)
	if rate <= 0 {
		return nil
	}
	dir, set := "down", n.Down.RateBitsPerSecond
	if sc.Upload() {
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
	if !sc.Transfer() {
		return linkmodel.LossModel{}, false
	}
	quic := c.Protocol == "h3"
	return linkmodel.PredictLoss(linkmodel.Controller(c.Protocol, n), link, linkmodel.PacketPayload(quic), n.RTTSeconds(), linkmodel.LinkLoss(n, sc.Upload()))
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
	m, ok := predictLoss(c, sc, n, linkmodel.LinkBound(n, sc.Upload(), c.Protocol))
	if !ok || !m.LossLimited || !within(c.Median, m.Rate) {
		return ""
	}
	text := fmt.Sprintf("the link drops %.1f%% of packets; %s backs off on each loss: its model (%s) predicts %s, the cell read %s, within a factor of %g",
		100*linkmodel.LinkLoss(n, sc.Upload()), m.Controller, m.Basis, units.BitsPerSecond(m.Rate*8), units.BitsPerSecond(c.Median*8), modelTolerance)
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
	other := "h3"
	if c.Protocol == "h3" {
		other = "h1"
	}
	mine, otherCC := linkmodel.Controller(c.Protocol, n), linkmodel.Controller(other, n)
	lb, known := linkmodel.LossBased(mine)
	olb, oknown := linkmodel.LossBased(otherCC)
	if !known || !oknown || lb == olb || !lb {
		return ""
	}
	if c.Protocol == "h3" {
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
// most one round trip plus what the bulk download holds ahead of it, the
// link's drop-tail queue (the direction's queue limit at its goodput) and,
// where it shares the download's connection (h2c, h2, h3), about as much
// again in the sender's buffers and window beyond the bandwidth-delay
// product. It explains the cell when the download ran at half the link or
// more (a queue forms only behind a sender that fills the link) and the
// cell is no further above that ceiling than modelTolerance; "" otherwise.
func holExplanation(c *results.Cell, n *results.Net) string {
	m := results.MedianRepetition(c)
	link, rtt := linkmodel.LinkGoodput(n, false), n.RTTSeconds()
	if m.Seconds <= 0 || m.BulkBytes <= 0 || link <= 0 {
		return ""
	}
	bulk := float64(m.BulkBytes) / m.Seconds
	queue := queueBytes(n.Down)
	ahead := queue
	if c.Protocol != "h1" && c.Protocol != "h1-tls" {
		ahead += queue + link*rtt
	}
	ceiling := rtt + ahead/link
	if bulk < link/2 || c.Median > ceiling*modelTolerance {
		return ""
	}
	return fmt.Sprintf("head-of-line: the small requests queue behind the bulk download (at %s, %.0f%% of the link): a round trip and up to %.0f KB ahead at the link's goodput predict at most %.0f ms, the cell read %.0f ms (within a factor of %g)",
		units.BitsPerSecond(bulk*8), 100*bulk/link, ahead/1e3, ceiling*1e3, c.Median*1e3, modelTolerance)
}

// queueBytes is a direction's drop-tail limit in bytes: its byte limit,
// or its packet limit (netem.DefaultQueuePackets when unset) of full
// packets, whichever is smaller.
func queueBytes(d results.NetDirection) float64 {
	pk := d.QueuePackets
	if pk <= 0 {
		pk = netem.DefaultQueuePackets
	}
	q := float64(pk * netem.MTU)
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
	m, ok := predictLoss(s.c, s.sc, n, linkmodel.LinkBound(n, s.sc.Upload(), s.c.Protocol))
	if why == "" || !ok || !m.LossLimited || !within(s.c.Median, m.Rate) {
		return nil
	}
	return &results.Finding{
		Evidence: fmt.Sprintf("%s: %s backs off on the link's %.1f%% loss, and its model (%s) of %s predicts the %s measured within a factor of %g; %s",
			gap(s.c), m.Controller, 100*linkmodel.LinkLoss(n, s.sc.Upload()), m.Basis, units.BitsPerSecond(m.Rate*8), units.BitsPerSecond(s.c.Median*8), modelTolerance, why),
		Fix: fmt.Sprintf("not a setting of the transport: quic-go has Cubic only; measure the link %s so that TCP backs off on loss as QUIC does, and the gap left is the protocols'", withCC(n.Spec, "cubic")),
	}
}
