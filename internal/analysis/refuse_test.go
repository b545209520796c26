package analysis

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestModelsRefuse: each explanation has a case where it must refuse, and
// its band is set by its inputs, not a fixed factor of two.
func TestModelsRefuse(t *testing.T) {
	const mbit = 1e6 / 8
	// Reno's (Mathis's) bound at 100 ms and 1% is 1.42 Mbit/s; a TCP cell
	// there on BBR, which does not back off on random loss, is not
	// explained by it.
	t.Run("Reno's bound on a BBR cell", func(t *testing.T) {
		n := linkCC(withRate(linkOf(0.100, 9e6, 0.01), 10e6), "rtt=100ms,rate=10mbit,loss=1%", "bbr")
		res := &results.Results{Settings: results.Settings{Net: n}, Cells: []results.Cell{sized(linkCell("download", "h1", 1.42*mbit, 1.45*mbit, 1.40*mbit))}}
		Bounds(res)
		b := res.Cells[0].Bound
		if b == nil || !b.Unexplained || BoundClass(b) == ClassAtLossBound {
			t.Fatalf("bound %+v: a BBR cell at Reno's bound must be unexplained", b)
		}
	})
	t.Run("a loss bound with no loss", func(t *testing.T) {
		n := linkCC(withRate(linkOf(0.100, 9e6, 0), 10e6), "rtt=100ms,rate=10mbit,cc=cubic", "cubic")
		c := sized(linkCell("download", "h1", 1.42*mbit, 1.45*mbit, 1.40*mbit))
		res := &results.Results{Settings: results.Settings{Net: n}, Cells: []results.Cell{c}}
		Bounds(res)
		b := res.Cells[0].Bound
		if b == nil || b.Loss != nil || !b.Unexplained {
			t.Fatalf("bound %+v: no loss, no loss model, unexplained", b)
		}
	})
	t.Run("a loss bound a transfer too short to meet a loss", func(t *testing.T) {
		n := linkCC(withRate(linkOf(0.100, 1.4e6, 0.001), 10e6), "rtt=100ms,rate=10mbit,loss=0.1%,cc=cubic", "cubic")
		c := linkCell("download", "h1", 4*mbit, 4.1*mbit, 3.9*mbit) // 0.5 MB a second: 0.3 loss events
		res := &results.Results{Settings: results.Settings{Net: n}, Cells: []results.Cell{c}}
		Bounds(res)
		if b := res.Cells[0].Bound; b == nil || strings.HasPrefix(b.Explained, "losses:") {
			t.Fatalf("bound %+v: a transfer that met no loss event is not at the loss bound", b)
		}
	})
	t.Run("the loss band is narrower than twice the prediction", func(t *testing.T) {
		// Cubic's bound at 100 ms, 1% is about 1.42 Mbit/s: 2.6 Mbit/s is
		// within twice it and outside what a hundred loss events and the
		// acknowledgement policy allow.
		n := linkCC(withRate(linkOf(0.100, 1.4e6, 0.01), 10e6), "rtt=100ms,rate=10mbit,loss=1%,cc=cubic", "cubic")
		res := &results.Results{Settings: results.Settings{Net: n}, Cells: []results.Cell{sized(linkCell("download", "h1", 2.6*mbit, 2.62*mbit, 2.58*mbit))}}
		Bounds(res)
		if b := res.Cells[0].Bound; b == nil || b.Explained != "" {
			t.Fatalf("bound %+v: 1.8x the prediction explained", b)
		}
	})
	// A clean link (no loss) whose TCP runs BBR: a small request beside a
	// download at the link waits a round trip and at most one
	// bandwidth-delay product queued, 200 ms at 100 ms and 10 Mbit/s; one
	// second is not head-of-line blocking this model explains (two full
	// 1000-packet queues plus the BDP, times two, allowed 5 s).
	t.Run("a head-of-line ceiling on a clean link", func(t *testing.T) {
		n := linkCC(withRate(linkOf(0.100, 9.5e6, 0), 10e6), "rtt=100ms,rate=10mbit", "bbr")
		late := withBulk(linkCell("head-of-line", "h1", 1.0, 1.05, 0.95), 1.15e6)
		res := &results.Results{Settings: results.Settings{Net: n}, Cells: []results.Cell{late}}
		Bounds(res)
		if b := res.Cells[0].Bound; b == nil || !b.Departs || b.Explained != "" {
			t.Fatalf("bound %+v: a second late is not explained", b)
		}
		near := withBulk(linkCell("head-of-line", "h1", 0.18, 0.19, 0.17), 1.15e6)
		res = &results.Results{Settings: results.Settings{Net: n}, Cells: []results.Cell{near}}
		Bounds(res)
		if b := res.Cells[0].Bound; b == nil || !strings.HasPrefix(b.Explained, "head-of-line:") {
			t.Fatalf("bound %+v: 180 ms, within a round trip and a BDP queued, is explained", b)
		}
	})
}
