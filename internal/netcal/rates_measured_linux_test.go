//go:build measured && linux

package netcal

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/internal/testenv"
	"github.com/httpvs/httpvs/netem"
)

// The links' rates and round trips measured against their specs: speed,
// so measured checks (-tags measured, .ci/run's measured step, nothing
// else running). The unit tests hold the same links to what physics
// allows (never faster than the link); these hold them to reaching it.

// TestLinkCeilingFloor: the unlimited link carries at least 100 Mbit/s,
// far below what a quiet machine's ferry carries.
func TestLinkCeilingFloor(t *testing.T) {
	l := newTestLink(t, "delay=0s,backend=tun")
	got, err := goodput(testenv.Context(t, time.Minute), l, false, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if got < 100e6 {
		t.Errorf("unlimited link carried %v, want at least 100 Mbit/s", got)
	}
}

// TestCalibrateAtTheLink: a calibration reads round trips within a few
// milliseconds of the link's and goodput within a quarter below its rate.
// Two Ps, as on a two-core machine: each direction's ferry waits for its
// next packet's due time, and a wait that held a P (a nanosleep) left the
// probes' own goroutines none, adding milliseconds to most round trips.
func TestCalibrateAtTheLink(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	l := newTestLink(t, "rtt=30ms,down=40mbit,up=10mbit")
	c, err := Calibrate(testenv.Context(t, time.Minute), l, Options{Probes: 100, Bulk: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if c.UDPRTT > 35*time.Millisecond || c.TCPConnect > 35*time.Millisecond {
		t.Errorf("round trips UDP %v, TCP %v: want within 5ms of 30ms", c.UDPRTT, c.TCPConnect)
	}
	if c.Down < 30e6 || c.Up < 7.5e6 {
		t.Errorf("goodput down %v (want 30..40 Mbit/s), up %v (want 7.5..10 Mbit/s)", c.Down, c.Up)
	}
}

// TestProbeRateAtTheLink: the paced UDP probe reads a rate-limited
// direction's rate within 3%, whatever its loss.
func TestProbeRateAtTheLink(t *testing.T) {
	l := newBackendLink(t, netem.BackendTUN, "rtt=40ms,up=4mbit,down=10mbit,loss=1%")
	ctx := testenv.Context(t, time.Minute)
	for _, c := range []struct {
		up   bool
		want float64
	}{{false, 10e6}, {true, 4e6}} {
		p, err := probeRate(ctx, l, c.up)
		if err != nil {
			t.Fatal(err)
		}
		if got := float64(p.Rate); got < 0.97*c.want {
			t.Errorf("up %v: rate %v, want %v within 3%%", c.up, p.Rate, c.want)
		}
	}
}

// rate=50mbit carries 50*1448/1500 = 48.27 Mbit/s of TCP payload (1500-byte
// packets, 52 bytes of IP and TCP headers with timestamps); the bound is 5%
// of it. The transfers are sized as run's calibration sizes them, max(500ms,
// 6 RTT): at rtt >= 20ms the warm-up must leave slow start behind (46.1 of
// 48.27 Mbit/s at rtt=50ms before SlowStart).
func TestCalibrationRate(t *testing.T) {
	const payload = 50e6 * 1448 / 1500
	forBackends(t, func(t *testing.T, b netem.Backend) {
		for _, rtt := range []time.Duration{20 * time.Millisecond, 50 * time.Millisecond} {
			t.Run(fmt.Sprint(rtt), func(t *testing.T) {
				l := newBackendLink(t, b, "rate=50mbit,rtt="+rtt.String())
				ctx := testenv.Context(t, time.Minute)
				for _, up := range []bool{false, true} {
					// Up to three readings: a busy machine holds the user-space
					// emulator below the link's rate, never above it, so the
					// best reading is the link's; above 105% fails at once.
					var readings []string
					for try := 0; ; try++ {
						start := time.Now()
						got, err := goodput(ctx, l, up, max(500*time.Millisecond, 6*rtt))
						if err != nil {
							t.Fatal(err)
						}
						share := float64(got) / payload
						t.Logf("%s rtt=%v,rate=50mbit up=%v: TCP goodput %v (%.1f%% of %.2f), took %v", b, rtt, up, got, 100*share, payload/1e6, time.Since(start).Round(time.Millisecond))
						readings = append(readings, fmt.Sprint(got))
						if share > 1.05 || share >= 0.95 {
							if share > 1.05 {
								t.Errorf("up=%v: goodput %v, above the link's %.2f Mbit/s by more than 5%%", up, got, payload/1e6)
							}
							break
						}
						if try == 2 {
							t.Errorf("up=%v: goodput %v, want %.2f Mbit/s ± 5%% (readings %v)", up, got, payload/1e6, readings)
							break
						}
					}
				}
				if u, d := l.ResetStats(); u.Largest > linkmodel.MTU || d.Largest > linkmodel.MTU {
					t.Errorf("packets larger than the MTU crossed the link (offloads on?): up %d, down %d bytes", u.Largest, d.Largest)
				}
			})
		}
	})
}
