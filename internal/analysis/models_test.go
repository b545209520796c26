package analysis

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
)

// TestCongestionControlRule: across 1% loss at 100 ms, h3 at quic-go
// Cubic's loss bound beside TCP on BBR at the link is the controllers'
// gap, and the finding offers the link with cc=cubic; the same cells with
// TCP on Cubic, or h3 far from its bound, are not.
func TestCongestionControlRule(t *testing.T) {
	const mbit = 1e6 / 8
	spec := "rtt=100ms,rate=10mbit,loss=1%"
	for _, tc := range []struct {
		name, cc string
		h3       float64 // bytes per second
		want     bool
	}{
		{"BBR against Cubic at its bound", "bbr", 1.6 * mbit, true},
		{"both on Cubic", "cubic", 1.6 * mbit, false},
		{"h3 far below its bound", "bbr", 0.2 * mbit, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := linkCC(linkOf(0.100, 9e6, 0.01), spec, tc.cc)
			res := &results.Results{Settings: results.Settings{Net: n}, Cells: []results.Cell{
				sized(linkCell("download", "h1", 8*mbit, 8.1*mbit, 7.9*mbit)),
				sized(linkCell("download", "h3", tc.h3, tc.h3*1.05, tc.h3*0.95)),
			}}
			SummariseCells(res)
			Diagnose(res)
			Bounds(res)
			c := res.Cell("download", "h3")
			var got *results.Finding
			for i, f := range c.Findings {
				if f.Rule == "congestion-control" {
					got = &c.Findings[i]
				}
			}
			if (got != nil) != tc.want {
				t.Fatalf("findings %+v: want congestion-control %v", c.Findings, tc.want)
			}
			if got == nil {
				return
			}
			t.Log(got)
			if !strings.Contains(got.Fix, spec+",cc=cubic") || !strings.Contains(got.Evidence, "bbr") || c.Findings[0].Rule != "congestion-control" {
				t.Errorf("%+v: want the controllers named first, and the link with cc=cubic offered", c.Findings)
			}
			if b := c.Bound; b == nil || !strings.HasPrefix(b.Explained, "congestion-control:") {
				t.Errorf("bound %+v: want the departure explained by the controllers", b)
			}
		})
	}
}

// TestQUICLossesTheLinkDrops: across a link set to drop 1%, QUIC's
// declared losses up to twice that are the link's, and quic-losses (whose
// fix is socket buffers) does not fire; beyond it, it does.
func TestQUICLossesTheLinkDrops(t *testing.T) {
	for _, tc := range []struct {
		lost int64
		want bool
	}{{15, false}, {80, true}} {
		n := linkCC(linkOf(0.050, 96e6, 0.01), "rtt=50ms,loss=1%", "bbr")
		h1 := linkCell("download", "h1", 10e6, 10e6, 10e6)
		h3 := linkCell("download", "h3", 4e6, 4e6, 4e6)
		for i := range h3.Repetitions {
			h3.Repetitions[i].ClientQUIC = stats.QUICStats{PacketsSent: 10, PacketsReceived: 1000}
			h3.Repetitions[i].Server = &stats.ServerStats{QUIC: stats.QUICStats{PacketsSent: 1000, PacketsLost: tc.lost}}
		}
		res := &results.Results{Settings: results.Settings{Net: n}, Cells: []results.Cell{h1, h3}}
		SummariseCells(res)
		Diagnose(res)
		Bounds(res)
		got := false
		for _, f := range res.Cell("download", "h3").Findings {
			got = got || f.Rule == "quic-losses"
		}
		if got != tc.want {
			t.Errorf("%d of 1010 packets lost on a 1%% link: quic-losses %v, want %v", tc.lost, got, tc.want)
		}
	}
}
