package matrix

import (
	"fmt"
	"strings"
	"time"

	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// quicController names quic-go's Cubic with the version this binary was
// built with (netem.QUICControllerOf).
func quicController() string {
	return netem.QUICControllerOf(results.ReadBuild().Modules[netem.QUICModule])
}

// Controller is the congestion control that sends protocol's data across
// n: quic-go's for h3 (Net.QUICCongestion, else quicController),
// the link's TCP one otherwise ("" when not recorded).
func Controller(protocol string, n *results.Net) string {
	if protocol == transport.H3.String() {
		if n.QUICCongestion != "" {
			return n.QUICCongestion
		}
		return quicController()
	}
	return n.TCPCongestion
}

// LinkLoss is the link's mean loss in one direction (client to server
// when upload is true), a fraction; 0 with no link.
func LinkLoss(n *results.Net, upload bool) float64 {
	switch {
	case n == nil:
		return 0
	case upload:
		return n.Up.Loss
	}
	return n.Down.Loss
}

// ExpectedRate is what protocol's transfers are expected to move one way
// across n, bytes per second: its controller's loss model
// (netem.PredictLoss) where one applies, else the link's bound
// (LinkBound); 0 when neither is known.
func ExpectedRate(n *results.Net, upload bool, protocol string) float64 {
	link := LinkBound(n, upload, protocol)
	if link <= 0 {
		return 0
	}
	quic := protocol == transport.H3.String()
	if m, ok := netem.PredictLoss(Controller(protocol, n), link, netem.PacketPayload(quic), n.RTTSeconds(), LinkLoss(n, upload)); ok {
		return m.Rate
	}
	return link
}

// lossEvents is Options.LossEvents with its default; 0 for none.
func (o *Options) lossEvents() int {
	switch {
	case o.LossEvents < 0:
		return 0
	case o.LossEvents == 0:
		return plan.DefaultLossEvents
	}
	return o.LossEvents
}

// lossSize is the steady part a transfer of sc needs across a lossy link
// to see lossEvents loss events: netem.LossEvents packets of TCP's
// payload, the whole transfer counted (its streams share the losses); 0
// on a link without loss in the data's direction.
func (o *Options) lossSize(sc Scenario) units.Bytes {
	packets := netem.LossEvents(o.lossEvents(), LinkLoss(o.Link, sc.Upload()))
	return units.Bytes(packets * netem.TCPSegmentBytes)
}

// transferTime is the expected time of one transfer of sc over p across
// the link, past its handshakes: its omitted start, then its steady bytes
// at ExpectedRate; o.omit plus Duration where the rate is not known.
func (o *Options) transferTime(sc Scenario, p transport.Protocol) time.Duration {
	size, rate := o.linkSize(sc), ExpectedRate(o.Link, sc.Upload(), p.String())
	if size <= 0 || rate <= 0 {
		return o.omit(sc.Upload()) + o.Duration
	}
	link := LinkGoodput(o.Link, sc.Upload())
	omitted := link * o.omit(sc.Upload()).Seconds()
	steady := max(float64(size)-omitted, 0)
	return o.omit(sc.Upload()) + time.Duration(steady/rate*float64(time.Second))
}

// LossSizing says, before a run across a lossy link, how its transfers
// were sized for the link's loss and what each is expected to take at its
// controller's loss model; nil on a link without loss or with
// Options.LossEvents negative.
func LossSizing(opts plan.Options) []string {
	return lossSizing(Options{opts})
}

// lossSizing is LossSizing with the runner's methods on its options.
func lossSizing(opts Options) []string {
	if err := opts.fill(); err != nil || !opts.onLink() || opts.lossEvents() == 0 || opts.Size > 0 {
		return nil
	}
	scenarios, err := opts.expand()
	if err != nil {
		return nil
	}
	var lines []string
	for _, sc := range scenarios {
		need := opts.lossSize(sc)
		if !sc.Transfer() || need <= 0 {
			continue
		}
		line := fmt.Sprintf("%s: each transfer sized to see %d loss events at the link's %.2g%% loss (%.0f packets, %s)", sc.Name, opts.lossEvents(), 100*LinkLoss(opts.Link, sc.Upload()), netem.LossEvents(opts.lossEvents(), LinkLoss(opts.Link, sc.Upload())), opts.linkSize(sc))
		r := &runner{opts: opts}
		var times []string
		for _, col := range r.columns(sc) {
			p := col.proto.String()
			times = append(times, fmt.Sprintf("%s %s under %s", p, opts.transferTime(sc, col.proto).Round(time.Second), Controller(p, opts.Link)))
		}
		lines = append(lines, line+"; expected at each controller's loss model: "+strings.Join(times, ", "))
	}
	return lines
}

// longestTransfer is the longest transfer expected across the link
// (transferTime) of any transport and transfer scenario asked for; 0 on
// loopback.
func (o *Options) longestTransfer() time.Duration {
	if !o.onLink() {
		return 0
	}
	var most time.Duration
	for _, sc := range o.Scenarios {
		if !sc.Transfer() {
			continue
		}
		for _, p := range o.Protocols {
			most = max(most, o.transferTime(sc, p))
		}
	}
	return most
}

// sizedLossEvents is how many loss events the run's transfers were sized
// to see (results.Settings.LossEvents): lossEvents on a link with loss
// either way and no fixed Size; 0 otherwise.
func (o *Options) sizedLossEvents() int {
	if !o.onLink() || o.Size > 0 || (LinkLoss(o.Link, false) <= 0 && LinkLoss(o.Link, true) <= 0) {
		return 0
	}
	return o.lossEvents()
}
