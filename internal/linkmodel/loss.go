package linkmodel

import (
	"fmt"
	"math"
	"strings"
)

// The framing a transfer's payload pays on a link, per IP packet: one home
// for the payload share of a link's rate (PayloadShare). A link's Rate
// counts IP packets (Direction.Rate); its losses come before the rate limit
// (Direction), so a lost packet costs no capacity and what the rate leaves
// after framing is the most any transport's payload moves.
const (
	// tlsRecordPayload and tlsRecordOverhead: a full TLS 1.3 record's
	// plaintext and what it adds (5 bytes of header, 1 of content type,
	// 16 of AEAD tag), bytes.
	tlsRecordPayload  = 16384
	tlsRecordOverhead = 22
	// quicPacketOverhead is what one of quic-go's 1-RTT packets spends
	// besides stream data, bytes: a short header (1 byte, a 4-byte
	// connection ID, up to 2 bytes of packet number), the 16-byte AEAD tag
	// and a STREAM frame's header (type, stream ID, a 4-byte offset; its
	// length omitted as the packet's last frame).
	quicPacketOverhead = 1 + 4 + 2 + 16 + 6
	// UDPIPHeaders are the IPv4 and UDP headers, bytes.
	UDPIPHeaders = 20 + 8
)

// PayloadShare is the fraction of a link's rate (bits of IP packets) that
// carries a transfer's payload: TCP's segments of TCPSegmentBytes in
// MTU-byte packets, less TLS records' overhead when tls is true; quic-go's
// packets of QUICMaxPacketBytes (quic true), less their headers, tag and
// frame header. HTTP/2's and HTTP/3's frame headers (9 and 2-9 bytes per
// frame of up to 16 KiB) are left out: the share is an upper bound.
func PayloadShare(quic, tls bool) float64 {
	if quic {
		return float64(QUICMaxPacketBytes-quicPacketOverhead) / float64(QUICMaxPacketBytes+UDPIPHeaders)
	}
	share := float64(TCPSegmentBytes) / MTU
	if tls {
		share *= float64(tlsRecordPayload) / (tlsRecordPayload + tlsRecordOverhead)
	}
	return share
}

// PacketPayload is the payload of a full packet of a transport, bytes:
// TCP's segment, or quic-go's stream data per packet (quic true).
func PacketPayload(quic bool) float64 {
	if quic {
		return QUICMaxPacketBytes - quicPacketOverhead
	}
	return TCPSegmentBytes
}

// LossBound is the rate, bytes per second, a loss-based congestion
// control (Reno, Cubic: one that halves or cuts its window on each loss)
// averages across random loss p (a fraction, above zero) at a round trip
// of rtt seconds with packets of mss payload bytes: Mathis et al. 1997,
// "The macroscopic behavior of the TCP congestion avoidance algorithm",
// rate = MSS / (RTT * sqrt(p)) * sqrt(3/2). 0 when p or rtt is not above
// zero. BBR does not back off on random loss: no such bound holds for it.
func LossBound(mss, rtt, p float64) float64 {
	if p <= 0 || rtt <= 0 {
		return 0
	}
	return mss / (rtt * math.Sqrt(p)) * math.Sqrt(1.5)
}

// Cubic's constants (RFC 9438, section 4): C, its window growth in
// segments per second cubed, and beta, the window kept on a loss. Linux's
// cubic and quic-go's (internal/congestion/cubic.go: beta 0.7,
// cubeCongestionWindowScale 410/1024) use the same; a test checks quic-go's.
const (
	CubicC    = 0.4
	CubicBeta = 0.7
)

// CubicBound is the rate, bytes per second, Cubic averages across random
// loss p at a round trip of rtt seconds with packets of mss payload bytes:
// the larger of its own response function (RFC 9438, section 5.1: an
// average window of (C(3+beta)/(4(1-beta)))^(1/4) (RTT/p)^(3/4) segments)
// and its Reno-friendly region's, which is LossBound's (Mathis et al.). On
// short round trips Cubic behaves as Reno; on long, fast ones it grows
// faster. 0 when p or rtt is not above zero.
func CubicBound(mss, rtt, p float64) float64 {
	if p <= 0 || rtt <= 0 {
		return 0
	}
	w := math.Pow(CubicC*(3+CubicBeta)/(4*(1-CubicBeta)), 0.25) * math.Pow(rtt/p, 0.75)
	return max(w*mss/rtt, LossBound(mss, rtt, p))
}

// BBRLossThreshold is the random loss below which BBR (version 1, Linux's
// bbr) keeps the link's rate: it does not back off on loss, and Cardwell
// et al. (ACM Queue 14(5), 2016, "BBR: Congestion-Based Congestion
// Control") measured it at the link rate less the lost share up to 5%
// loss and close to it up to 15%.
const BBRLossThreshold = 0.15

// LossModel is what a congestion control's response to random loss
// predicts for one transfer: Rate, bytes per second (0 when the model
// makes no prediction), and Basis, the model in a few words.
type LossModel struct {
	// Controller is the congestion control's name as recorded (a kernel
	// name or QUICController's).
	Controller string
	// Rate is the predicted payload rate, bytes per second: the link's
	// bound where the controller does not back off on this loss.
	Rate float64
	// LossLimited says Rate is the controller's loss response, below the
	// link's bound: the cell is expected there, not at the link.
	LossLimited bool
	// Basis names the model and its inputs.
	Basis string
}

// PredictLoss is controller cc's response to random loss p (a fraction)
// on a link whose payload bound is link bytes per second, at a round trip
// of rtt seconds with packets of mss payload bytes: Reno's Mathis bound,
// Cubic's response function where it is higher (Linux's cubic and
// quic-go's), BBR's link rate below BBRLossThreshold; each capped by the
// link. ok is false where no model applies: no loss, an unknown
// controller, BBR above its threshold.
func PredictLoss(cc string, link, mss, rtt, p float64) (m LossModel, ok bool) {
	m.Controller = cc
	if p <= 0 || rtt <= 0 || link <= 0 {
		return m, false
	}
	var rate float64
	switch {
	case cc == "reno":
		rate = LossBound(mss, rtt, p)
		m.Basis = fmt.Sprintf("Reno at %.2g%% loss, %.0f ms: Mathis et al. 1997, MSS/(RTT x sqrt(p)) x 1.22", 100*p, 1e3*rtt)
	case cc == "cubic" || isQUICController(cc):
		rate = CubicBound(mss, rtt, p)
		m.Basis = fmt.Sprintf("Cubic at %.2g%% loss, %.0f ms: the larger of Mathis et al.'s bound and Cubic's response function (RFC 9438 5.1)", 100*p, 1e3*rtt)
	case strings.HasPrefix(cc, "bbr") && p < BBRLossThreshold:
		m.Rate = link
		m.Basis = fmt.Sprintf("BBR does not back off on random loss below %.0f%% (Cardwell et al. 2016): the link's bound", 100*BBRLossThreshold)
		return m, true
	default:
		return m, false
	}
	m.Rate, m.LossLimited = min(rate, link), rate < link
	return m, true
}

// LossBased reports whether the congestion control named cc (a kernel
// name, "bbr", "cubic", "reno", or QUICCongestion) backs off on random
// loss, so that LossBound holds for it; known is false for a name this
// package does not know ("" among them).
func LossBased(cc string) (lossBased, known bool) {
	switch {
	case isQUICController(cc), cc == "cubic", cc == "reno":
		return true, true
	case strings.HasPrefix(cc, "bbr"):
		return false, true
	}
	return false, false
}

// LossEvents is how many packets a transfer must send to see events loss
// events at random loss p: events/p (each random loss is one event where
// the window holds fewer than 1/p packets, as it does at the loss bound).
// 0 when p is not above zero.
func LossEvents(events int, p float64) float64 {
	if p <= 0 {
		return 0
	}
	return float64(events) / p
}
