package analysis

import (
	"fmt"

	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// Go's and quic-go's receive windows as shipped, per stream: what a
// zero-valued setting means.
const (
	goClientStreamWindow = 4 * units.MiB // net/http's HTTP/2 client
	goServerStreamWindow = 1 * units.MiB // net/http's HTTP/2 server, per stream and per connection
	quicStreamWindow     = 6 * units.MiB // quic-go's MaxStreamReceiveWindow
	quicConnWindow       = 15 * units.MiB
)

// windowNear is how close to window/RTT a transfer must run to call it
// window-limited: a stream that never left slow start runs below it.
const windowNear = 0.6

// windowLimited: across an emulated link, a one-stream transfer ran at
// about its receiver's stream window per round trip, well below what the
// link carries: the window, not the link or the CPU, set the rate (a
// window of W bytes lets W bytes be in flight per round trip). Loopback's
// round trips are microseconds, so only a link shows it.
func windowLimited(s *subject) *results.Finding {
	n := s.set.Net
	if n == nil || !s.transfer() || scenariospec.Of(&s.sc).Streams != 1 || s.m.Value <= 0 {
		return nil
	}
	p, ok := s.protocol()
	if !ok {
		return nil
	}
	side, end := s.receiver()
	window, origin := s.streamWindow(p.String(), end)
	rtt := n.Calibration.UDPRTTSeconds
	if window == 0 || rtt <= 0 {
		return nil
	}
	link := linkBytesPerSecond(n, s.upload())
	bound := float64(window) / rtt
	if s.m.Value < windowNear*bound || s.m.Value > 1.1*bound || link <= 0 || bound > 0.8*link {
		return nil
	}
	// A window of twice the bandwidth-delay product, in whole MiB powers
	// of two, keeps the link busy while credit travels back.
	want := units.MiB
	for float64(want) < 2*link*rtt {
		want *= 2
	}
	f := &results.Finding{
		Evidence: fmt.Sprintf("%s: %s on one stream ≈ the %s's %s stream window (%s) per %.0f ms round trip, %s; the link carries %s",
			gap(s.c), units.BitsPerSecond(s.m.Value*8), side, units.Bytes(window), origin, rtt*1e3, units.BitsPerSecond(bound*8), units.BitsPerSecond(link*8)),
		Figures: figures(s.c, []results.Figure{{Name: "measured", Value: s.m.Value, Unit: "bytes/s"}, {Name: side + " stream window", Value: float64(window), Unit: "bytes"},
			{Name: "round trip", Value: rtt, Unit: "s"}, {Name: "predicted", Value: bound, Unit: "bytes/s"}, {Name: "link", Value: link, Unit: "bytes/s"}}...),
	}
	switch p {
	case transport.H3:
		conn := max(2*want, quicConnWindow)
		f.Fix = fmt.Sprintf("give the %s's QUIC streams a window of at least twice the bandwidth-delay product: quic.Config{MaxStreamReceiveWindow: %d << 20, MaxConnectionReceiveWindow: %d << 20}", side, want>>20, conn>>20)
		f.Knobs = []results.Knob{{Field: end + ".QUIC.MaxStreamReceiveWindow", Value: fmt.Sprintf("%dMi", want>>20)}, {Field: end + ".QUIC.MaxConnectionReceiveWindow", Value: fmt.Sprintf("%dMi", conn>>20)}}
	default:
		f.Fix = fmt.Sprintf("give the %s's HTTP/2 streams a window of at least twice the bandwidth-delay product: http.HTTP2Config{MaxReceiveBufferPerStream: %d << 20}", side, want>>20)
		f.Knobs = []results.Knob{{Field: end + ".HTTP2.MaxReceiveBufferPerStream", Value: fmt.Sprintf("%dMi", want>>20)}}
		if end == "Server" {
			// Go's server gives the connection the same 1 MiB.
			f.Fix = fmt.Sprintf("give the server's HTTP/2 streams and connections a window of at least twice the bandwidth-delay product: http.Server{HTTP2: &http.HTTP2Config{MaxReceiveBufferPerStream: %d << 20, MaxReceiveBufferPerConnection: %d << 20}}", want>>20, want>>20)
			f.Knobs = append(f.Knobs, results.Knob{Field: "Server.HTTP2.MaxReceiveBufferPerConnection", Value: fmt.Sprintf("%dMi", want>>20)})
		}
	}
	if end == "Server" && !s.ownServer() {
		f.Knobs = nil // the target's server: not a setting of this run
	}
	return f
}

// streamWindow is the receive window per stream of the side end ("Client"
// or "Server") for transport p, as the run set it or as Go and quic-go
// ship it, and which of the two; 0 for a transport without one (h1,
// h1-tls: TCP's own).
func (s *subject) streamWindow(p, end string) (units.Bytes, string) {
	switch p {
	case protoname.H2C, protoname.H2:
		if end == "Client" {
			if w := s.set.Client.HTTP2.MaxReceiveBufferPerStream; w > 0 {
				return w, "as set"
			}
			return goClientStreamWindow, "Go's default"
		}
		if s.set.Server != nil && s.set.Server.HTTP2.MaxReceiveBufferPerStream > 0 {
			return s.set.Server.HTTP2.MaxReceiveBufferPerStream, "as set"
		}
		return goServerStreamWindow, "Go's default"
	case protoname.H3:
		q := s.set.Client.QUIC
		if end == "Server" {
			if s.set.Server == nil {
				return quicStreamWindow, "quic-go's default"
			}
			q = s.set.Server.QUIC
		}
		if q.MaxStreamReceiveWindow > 0 {
			return q.MaxStreamReceiveWindow, "as set"
		}
		return quicStreamWindow, "quic-go's default"
	}
	return 0, ""
}

// linkBytesPerSecond is what the link carries in a transfer's direction:
// the configured rate, or the calibrated TCP goodput when unlimited.
func linkBytesPerSecond(n *results.Net, upload bool) float64 {
	rate, goodput := linkmodel.LinkDirection(n, upload)
	if rate > 0 {
		return rate / 8
	}
	return goodput / 8
}

// emulatorNear is the share of the emulator's calibrated ceiling above
// which a transfer may have been limited by the emulator itself.
const emulatorNear = 0.8

// emulatorLate is the share of a direction's calibration packets the TUN
// emulator wrote late above which the goodput it carried there was its
// own ceiling: half of them at rtt=0 here, against 3% at rtt=100ms
// (where the sender's TCP buffer sets the goodput) and 0.1% on
// intercontinental (the queue's drops in slow start do).
const emulatorLate = 0.10

// emulatorBound: across a link with no rate (or one above what the
// emulator carried in calibration), a transfer moved about as fast as the
// emulator's own ceiling - one TCP stream's goodput through it before the
// cells, when the emulator fell behind there (late packets): the figure
// may be the emulator's, not the transport's. A calibration held below
// the rate by TCP itself (its buffers at a long round trip, its losses
// at the queue) is the network's behaviour, not the emulator's, and a
// transfer well above that goodput was not held by it.
func emulatorBound(s *subject) *results.Finding {
	n := s.set.Net
	if n == nil || !s.transfer() || s.m.Seconds <= 0 || s.m.Bytes <= 0 {
		return nil
	}
	rate, goodput := linkmodel.LinkDirection(n, s.upload())
	if goodput <= 0 || (rate > 0 && rate < goodput/emulatorNear) {
		return nil // a configured rate well below the ceiling is the link's
	}
	if lb, _ := linkmodel.LossBased(n.TCPCongestion); lb && linkmodel.LinkLoss(n, s.upload()) > 0 {
		return nil // the calibration's goodput was its controller's loss response
	}
	moved := float64(s.m.Bytes) * 8 / s.m.Seconds
	if moved < emulatorNear*goodput || moved > goodput/emulatorNear {
		return nil
	}
	cal := n.Calibration.DownCounters
	if s.upload() {
		cal = n.Calibration.UpCounters
	}
	late := ""
	if n.Backend == results.NetBackendTUN {
		if cal.Packets == 0 || float64(cal.Late) < emulatorLate*float64(cal.Packets) {
			return nil
		}
		late = fmt.Sprintf(", %.0f%% of its packets late", 100*float64(cal.Late)/float64(cal.Packets))
	}
	return &results.Finding{
		Evidence: fmt.Sprintf("%s: %s, %.0f%% of the emulator's ceiling (%s through it on one TCP connection in calibration%s)",
			gap(s.c), units.BitsPerSecond(moved), 100*moved/goodput, units.BitsPerSecond(goodput), late),
		Figures: figures(s.c, []results.Figure{{Name: "measured", Value: moved, Unit: "bits/s"}, {Name: "emulator ceiling", Value: goodput, Unit: "bits/s"}}...),
		Fix:     "the emulated link, not the transport, may have set this figure: give the link a rate well below that ceiling (rate=...) or measure this cell on loopback",
	}
}
