package linkmodel

import (
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

// RTTSeconds is n's round trip, seconds: its configured delays, which
// are exact (a calibration on a busy machine reads them a few
// milliseconds long: its probes' echo is a goroutine that waits its turn),
// or the calibrated TCP handshake on a link set to no delay.
func RTTSeconds(n *results.Net) float64 {
	if d := n.Up.DelaySeconds + n.Down.DelaySeconds; d > 0 {
		return d
	}
	if n.Calibration.TCPConnectSeconds > 0 {
		return n.Calibration.TCPConnectSeconds
	}
	return n.Calibration.UDPRTTSeconds
}

// Rate is a direction's rate of n (client to server when up is true) in bits
// per second, for saying what the link was: its configured rate of IP
// packets, or where none was set the calibration's TCP goodput (the
// emulator's or the machine's ceiling). Bounds are LinkBound's.
func Rate(n *results.Net, up bool) float64 {
	if up {
		if n.Up.RateBitsPerSecond > 0 {
			return n.Up.RateBitsPerSecond
		}
		return n.Calibration.UpGoodputBitsPerSecond
	}
	if n.Down.RateBitsPerSecond > 0 {
		return n.Down.RateBitsPerSecond
	}
	return n.Calibration.DownGoodputBitsPerSecond
}

// CrossoverRate is the link rate, bits per second, below which a
// transport moving x's bytes per second is bound by the link rather than
// by its CPU on this machine; 0 when unknown.
func CrossoverRate(x results.Crossover) units.BitsPerSecond {
	return units.BitsPerSecond(x.BytesPerSecond * 8)
}
