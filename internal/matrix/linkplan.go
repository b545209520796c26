package matrix

import (
	"time"

	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transfer/transferresult"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/units"
)

// Across an emulated link (Options.Link) rounds are sized by the link's
// round trip and goodput rather than by the wall clock: a round of a few
// round trips measures handshakes and slow start, not the transport.
const (
	// handshakeRTTs are the round trips before a transfer's first body
	// byte over TCP, TLS 1.3 and one request, the most any transport needs.
	handshakeRTTs = 3
	// omitMarginRTTs are added past slow start's estimated end: its exit
	// (HyStart, or the queue's first losses) and the window settling.
	omitMarginRTTs = 2
)

// onLink says the run crosses an emulated link whose round trip is known.
func (o *Options) onLink() bool { return o.Link != nil && o.RTT > 0 }

// slowStartRTTs is how many round trips slow start takes to grow TCP's
// initial window to the bandwidth-delay product of rate (bytes per
// second) at rtt (linkmodel.SlowStartRTTs): TCP's, the smaller of the two
// initial windows, so that every transport's ramp is left out.
func slowStartRTTs(rate float64, rtt time.Duration) int {
	return linkmodel.SlowStartRTTs(rate, rtt, linkmodel.InitialWindowBytes(false))
}

// omit is how much of a transfer across the link its rate leaves out
// (transfer.Plan.Omit): Options.Omit when set, none when negative, else
// the handshakes, slow start and its exit. Zero on loopback.
func (o *Options) omit(upload bool) time.Duration {
	switch {
	case o.Omit < 0:
		return 0
	case o.Omit > 0:
		return o.Omit
	case !o.onLink():
		return 0
	}
	rtts := handshakeRTTs + slowStartRTTs(linkmodel.LinkGoodput(o.Link, upload), o.RTT) + omitMarginRTTs
	return time.Duration(rtts) * o.RTT
}

// linkSize is a transfer's total body size across the link: what the
// link carries in its omitted part and its measured window (Duration),
// at least minPerStream per stream, and on a lossy link at least what
// its steady part needs to see LossEvents losses (lossSize). 0 when the
// goodput is unknown (the probe sizes it then).
func (o *Options) linkSize(sc Scenario) units.Bytes {
	rate := linkmodel.LinkGoodput(o.Link, scenariospec.Of(&sc).Upload)
	if rate <= 0 {
		return 0
	}
	d := o.omit(scenariospec.Of(&sc).Upload) + o.Duration
	size := units.Bytes(rate*d.Seconds()) / units.MiB * units.MiB
	if loss := o.lossSize(sc); loss > 0 {
		// Its steady part sees the loss events it is sized for.
		size = max(size, (units.Bytes(rate*o.omit(scenariospec.Of(&sc).Upload).Seconds())+loss+units.MiB-1)/units.MiB*units.MiB)
	}
	return max(size, units.Bytes(spec(&sc).Streams)*minPerStream)
}

// fillLink gives Duration and Warmup, when zero, their defaults across the
// link: a window of LinkWindowRTTs round trips and a warm-up of
// LinkWarmupRTTs, or the loopback defaults when those are longer.
func (o *Options) fillLink() {
	if !o.onLink() {
		return
	}
	if o.Duration == 0 {
		o.Duration = max(defaults.MatrixDuration, defaults.LinkWindowRTTs*o.RTT)
	}
	if o.Warmup == 0 {
		o.Warmup = max(o.Duration/4, defaults.LinkWarmupRTTs*o.RTT)
	}
}

// steadyRate makes a transfer repetition's Value its steady rate when the
// transfer omitted its start (transferresult.Result.SteadyBytes), and records
// the omitted part and the time to the first byte apart.
func steadyRate(m *results.Repetition, res transferresult.Result) {
	m.FirstByteSeconds = res.FirstByteSeconds
	if res.OmitSeconds <= 0 {
		return
	}
	m.Omit = &results.Omitted{Seconds: res.OmitSeconds, Bytes: res.OmittedBytes, Note: res.SteadyNote}
	if res.SteadySeconds > 0 && res.SteadyBytes > 0 {
		m.Value = float64(res.SteadyBytes) / res.SteadySeconds
		m.Omit.SteadySeconds = res.SteadySeconds
	}
}
