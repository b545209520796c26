// Package linkmodel is the model of an emulated link that httpvs's plans,
// bounds and explanations share: the transports' framing and initial
// windows, slow start, the congestion controllers' responses to loss,
// sizing transfers by loss events, and page-load's bound. It reads
// results.Net (a link as configured and calibrated) and never measures.
package linkmodel

import (
	"math"
	"strings"
	"time"

	"github.com/httpvs/httpvs/units"
)

// QUICCongestion is the congestion control quic-go uses for HTTP/3 as
// httpvs configures it (quic-go's default): its own Cubic, whatever TCP's
// is. QUICControllerOf names it with the version built in.
const QUICCongestion = "quic-go's cubic"

// QUICModule is quic-go's module path.
const QUICModule = "github.com/quic-go/quic-go"

// QUICControllerOf is QUICCongestion with quic-go's version as built in
// (buildinfo.Build.Modules[QUICModule]), as the results record it:
// "quic-go v0.65.0's cubic"; QUICCongestion for no version (a binary
// without module information).
func QUICControllerOf(version string) string {
	if version == "" {
		return QUICCongestion
	}
	return "quic-go " + version + "'s cubic"
}

// isQUICController says cc names quic-go's Cubic, with or without its
// version (QUICCongestion, QUICController).
func isQUICController(cc string) bool {
	return strings.HasPrefix(cc, "quic-go") && strings.HasSuffix(cc, "cubic")
}

// The congestion windows of the two families of stacks a link carries,
// one home for every model of them (slow start, page-load's bound, the
// loss bound). TCP's are Linux's; QUIC's are quic-go's, read from the
// version go.mod requires (v0.65: internal/congestion/cubic_sender.go's
// initialCongestionWindow of 32 packets of protocol.InitialPacketSize,
// 1280 bytes; protocol.MaxPacketBufferSize 1452 once path MTU discovery
// has grown packets); a test checks them against that source.
const (
	// TCPSegmentBytes is a full TCP segment's payload on a 1500-byte
	// MTU with timestamps: 1500 - 20 (IP) - 20 (TCP) - 12 (options).
	TCPSegmentBytes = MTU - 52
	// MTU is the emulated links' MTU, bytes: the largest IP packet that
	// crosses one (netem's TUN devices and veth pairs).
	MTU = 1500
	// TCPInitialWindowSegments is Linux's initial congestion window
	// (RFC 6928), in segments.
	TCPInitialWindowSegments = 10
	// QUICInitialPacketBytes is quic-go's packet size before path MTU
	// discovery, bytes.
	QUICInitialPacketBytes = 1280
	// QUICMaxPacketBytes is the largest packet quic-go sends, bytes.
	QUICMaxPacketBytes = 1452
	// QUICInitialWindowPackets is quic-go's initial congestion window,
	// in packets of QUICInitialPacketBytes.
	QUICInitialWindowPackets = 32
)

// InitialWindowBytes is the initial congestion window of a transport,
// bytes: quic-go's for QUIC (quic true), Linux's TCP otherwise.
func InitialWindowBytes(quic bool) float64 {
	if quic {
		return QUICInitialWindowPackets * QUICInitialPacketBytes
	}
	return TCPInitialWindowSegments * TCPSegmentBytes
}

// SlowStartRTTs is how many round trips slow start takes to grow a
// window of iw bytes to the bandwidth-delay product of rate (bytes per
// second) at rtt: one per doubling; 0 when the window already holds it.
func SlowStartRTTs(rate float64, rtt time.Duration, iw float64) int {
	if iw <= 0 {
		return 0
	}
	return int(math.Ceil(math.Log2(max(1, rate*rtt.Seconds()/iw))))
}

// SlowStart estimates how long one TCP connection takes to fill a
// direction of rate bits per second and round trip rtt (a netem.Spec's
// Down or Up, and RTT) from
// Linux's initial window (InitialWindowBytes): one round trip per doubling
// until the window holds the direction's bandwidth-delay product
// (SlowStartRTTs), plus two round trips for slow start's exit (HyStart, or
// the first losses when the queue overflows). It is zero for an unlimited
// direction or a zero round trip, whose ramp the rate does not bound.
func SlowStart(rate units.BitsPerSecond, rtt time.Duration) time.Duration {
	if rate <= 0 || rtt <= 0 {
		return 0
	}
	doublings := SlowStartRTTs(float64(rate)/8, rtt, InitialWindowBytes(false))
	return time.Duration(doublings+2) * rtt
}
