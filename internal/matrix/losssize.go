package matrix

import (
	"fmt"
	"strings"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// lossEvents is Options.LossEvents with its default; 0 for none.
func (o *Options) lossEvents() int {
	switch {
	case o.LossEvents < 0:
		return 0
	case o.LossEvents == 0:
		return defaults.LossEvents
	}
	return o.LossEvents
}

// lossSize is the steady part a transfer of sc needs across a lossy link
// to see lossEvents loss events: linkmodel.LossEvents packets of TCP's
// payload, the whole transfer counted (its streams share the losses); 0
// on a link without loss in the data's direction.
func (o *Options) lossSize(sc Scenario) units.Bytes {
	packets := linkmodel.LossEvents(o.lossEvents(), linkmodel.LinkLoss(o.Link, scenariospec.Of(&sc).Upload))
	return units.Bytes(packets * linkmodel.TCPSegmentBytes)
}

// transferTime is the expected time of one transfer of sc over p across
// the link, past its handshakes: its omitted start, then its steady bytes
// at ExpectedRate; o.omit plus Duration where the rate is not known.
func (o *Options) transferTime(sc Scenario, p transport.Protocol) time.Duration {
	size, rate := o.linkSize(sc), linkmodel.ExpectedRate(o.Link, scenariospec.Of(&sc).Upload, p.String())
	if size <= 0 || rate <= 0 {
		return o.omit(scenariospec.Of(&sc).Upload) + o.Duration
	}
	link := linkmodel.LinkGoodput(o.Link, scenariospec.Of(&sc).Upload)
	omitted := link * o.omit(scenariospec.Of(&sc).Upload).Seconds()
	steady := max(float64(size)-omitted, 0)
	return o.omit(scenariospec.Of(&sc).Upload) + time.Duration(steady/rate*float64(time.Second))
}

// LossSizing says, before a run across a lossy link, how its transfers
// were sized for the link's loss and what each is expected to take at its
// controller's loss model; nil on a link without loss or with
// Options.LossEvents negative.
func LossSizing(opts Options) []string {
	return lossSizing(opts)
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
		if !scenariospec.Transfer(sc.Metric) || need <= 0 {
			continue
		}
		line := fmt.Sprintf("%s: each transfer sized to see %d loss events at the link's %.2g%% loss (%.0f packets, %s)", sc.Name, opts.lossEvents(), 100*linkmodel.LinkLoss(opts.Link, scenariospec.Of(&sc).Upload), linkmodel.LossEvents(opts.lossEvents(), linkmodel.LinkLoss(opts.Link, scenariospec.Of(&sc).Upload)), opts.linkSize(sc))
		r := &runner{opts: opts}
		var times []string
		for _, col := range r.columns(sc) {
			p := col.proto.String()
			times = append(times, fmt.Sprintf("%s %s under %s", p, opts.transferTime(sc, col.proto).Round(time.Second), linkmodel.Controller(p, opts.Link)))
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
		if !scenariospec.Transfer(sc.Metric) {
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
	if !o.onLink() || o.Size > 0 || (linkmodel.LinkLoss(o.Link, false) <= 0 && linkmodel.LinkLoss(o.Link, true) <= 0) {
		return 0
	}
	return o.lossEvents()
}
