package matrix

import (
	"math"
	"testing"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
)

func TestLinkPlan(t *testing.T) {
	link := &results.Net{Spec: "test", Backend: results.NetBackendTUN}
	link.Up.DelaySeconds, link.Down.DelaySeconds = 0.025, 0.025
	link.Calibration.UpGoodputBitsPerSecond, link.Calibration.DownGoodputBitsPerSecond = 96e6, 96e6
	o := Options{Options: plan.Options{}, Wiring: Wiring{RTT: 50e6, Link: link}} // 50 ms
	o.fillLink()
	if o.Duration != defaults.LinkWindowRTTs*o.RTT || o.Warmup != defaults.LinkWarmupRTTs*o.RTT {
		t.Errorf("duration %v, warmup %v: want %d and %d round trips", o.Duration, o.Warmup, defaults.LinkWindowRTTs, defaults.LinkWarmupRTTs)
	}
	// 12 MB/s at 50 ms: a 600 KB window, 6 doublings from 14.5 KB, plus
	// the handshakes and the exit: 11 round trips.
	if got := o.omit(false); got != 11*o.RTT {
		t.Errorf("omit %v, want 11 round trips", got)
	}
	sc, _ := ScenarioByName("download")
	if size, want := o.linkSize(sc), 12e6*(0.55+1.2); math.Abs(float64(size)-want) > 1<<20 {
		t.Errorf("download sized %d bytes, want about %.0f: the link's goodput over the omit and the window", size, want)
	}
	o.Omit = -1
	if o.omit(false) != 0 {
		t.Error("a negative Omit should omit nothing")
	}
	var loop Options
	loop.fillLink()
	if loop.Duration != 0 || loop.omit(false) != 0 || loop.linkSize(sc) != 0 {
		t.Errorf("loopback options changed by the link plan: %+v", loop)
	}
}
