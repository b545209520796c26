package report

import (
	"fmt"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

// NetSummary says in one line what the link n was asked to be, what was
// measured, and whether the emulator kept up.
func NetSummary(n *results.Net) string {
	c := n.Calibration
	late := n.UpCounters.Late + n.DownCounters.Late
	maxLate := max(n.UpCounters.MaxLateSeconds, n.DownCounters.MaxLateSeconds)
	overflow := n.UpCounters.Overflow + n.DownCounters.Overflow
	name := n.Spec
	if name != n.Configured {
		name += " (" + n.Configured + ")"
	}
	measured := fmt.Sprintf("emulated link %s: measured RTT %.1f ms, loss %.1f%% up %.1f%% down", name, c.UDPRTTSeconds*1e3, c.UpLoss*100, c.DownLoss*100)
	if c.UpRateBitsPerSecond > 0 || c.DownRateBitsPerSecond > 0 {
		measured += fmt.Sprintf(", rate %s up %s down (paced UDP)", units.BitsPerSecond(c.UpRateBitsPerSecond), units.BitsPerSecond(c.DownRateBitsPerSecond))
	}
	measured += fmt.Sprintf(", TCP goodput %s up %s down", units.BitsPerSecond(c.UpGoodputBitsPerSecond), units.BitsPerSecond(c.DownGoodputBitsPerSecond))
	if n.TCPCongestion != "" {
		measured += " (" + n.TCPCongestion + ")"
	}
	if n.TCPCongestion != "" {
		measured += fmt.Sprintf("; congestion control: TCP %s, QUIC %s", n.TCPCongestion, n.QUICCongestion)
	}
	if n.Backend == results.NetBackendNetem {
		// The kernel keeps no count of packets it sent late.
		return measured + "; the kernel's netem qdisc applied it"
	}
	return measured + fmt.Sprintf("; during the cells %d packets were late (max %.1f ms), %d overflowed", late, maxLate*1e3, overflow)
}
