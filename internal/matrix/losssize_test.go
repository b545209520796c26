package matrix

import (
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// lossyLink is 10 Mbit/s each way at 100 ms with loss, TCP on cc.
func lossyLink(loss float64, cc string) *results.Net {
	n := &results.Net{Spec: "test", Backend: results.NetBackendTUN, TCPCongestion: cc}
	n.Up.DelaySeconds, n.Down.DelaySeconds = 0.05, 0.05
	n.Up.RateBitsPerSecond, n.Down.RateBitsPerSecond = 10e6, 10e6
	n.Up.Loss, n.Down.Loss = loss, loss
	n.Calibration.TCPConnectSeconds = 0.1
	n.Calibration.UpGoodputBitsPerSecond, n.Calibration.DownGoodputBitsPerSecond = 1.07e6, 1.07e6
	return n
}

// TestLossSizing: across 1% loss a download is sized to see 100 losses
// (10,000 packets, about 14.5 MB past its omitted start), whatever the
// calibration's TCP transfer read; under Reno it is expected to take
// about 80 s at Mathis's bound, under BBR about 12 s at the link; the run
// says so before it starts, and its repetitions may last that long.
func TestLossSizing(t *testing.T) {
	sc, _ := ScenarioByName("download")
	for _, tc := range []struct {
		cc       string
		low, top time.Duration
	}{{"reno", 75 * time.Second, 95 * time.Second}, {"bbr", 11 * time.Second, 16 * time.Second}} {
		o := Options{Options: plan.Options{Scenarios: []Scenario{sc}, Protocols: []transport.Protocol{transport.H1TLS, transport.H3}}, Wiring: Wiring{Link: lossyLink(0.01, tc.cc), RTT: 100 * time.Millisecond, Target: Target{TLS: "https://198.18.0.2:1"}}}
		if err := o.fill(); err != nil {
			t.Fatal(err)
		}
		if size := o.linkSize(sc); size < 14*units.MB || size > 18*units.MB {
			t.Errorf("%s: size %v, want 100 losses' 14.5 MB and the omitted start", tc.cc, size)
		}
		got := o.transferTime(sc, transport.H1TLS)
		if got < tc.low || got > tc.top {
			t.Errorf("%s: h1-tls expected %v, want %v-%v", tc.cc, got, tc.low, tc.top)
		}
		if o.Timeout < 2*got {
			t.Errorf("%s: timeout %v under twice the transfer's %v", tc.cc, o.Timeout, got)
		}
		if got := o.settings().LossEvents; got != defaults.LossEvents {
			t.Errorf("%s: settings record %d loss events, want %d", tc.cc, got, defaults.LossEvents)
		}
		lines := lossSizing(o)
		if len(lines) != 1 || !strings.Contains(lines[0], "100 loss events") || !strings.Contains(lines[0], "h1-tls") || !strings.Contains(lines[0], "quic-go") {
			t.Errorf("%s: sizing %q", tc.cc, lines)
		}
		t.Log(lines)
	}
	// Without loss, or with LossEvents negative, Duration alone sizes it.
	o := Options{Options: plan.Options{Scenarios: []Scenario{sc}}, Wiring: Wiring{Link: lossyLink(0, "reno"), RTT: 100 * time.Millisecond}}
	_ = o.fill()
	if o.lossSize(sc) != 0 || lossSizing(o) != nil || o.settings().LossEvents != 0 {
		t.Error("no loss: want no loss sizing")
	}
	o = Options{Options: plan.Options{Scenarios: []Scenario{sc}, LossEvents: -1}, Wiring: Wiring{Link: lossyLink(0.01, "reno"), RTT: 100 * time.Millisecond}}
	_ = o.fill()
	if o.lossSize(sc) != 0 {
		t.Error("LossEvents -1: want none")
	}
}
