package netem

import (
	"context"
	"errors"
	"math"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// newTestLink makes a link for spec, or skips the test with the reason
// when this system cannot; the link is closed when the test ends.
func newTestLink(t *testing.T, text string) *Link {
	t.Helper()
	skipWithoutPrivilege(t)
	spec, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLink(spec)
	skipIfDenied(t, err)
	if err != nil {
		t.Fatalf("NewLink(%s): %v", text, err)
	}
	t.Cleanup(func() {
		if err := l.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return l
}

func skipWithoutPrivilege(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to create network namespaces and TUN devices")
	}
	if _, err := os.Stat("/dev/net/tun"); err != nil {
		t.Skipf("needs /dev/net/tun: %v", err)
	}
}

// skipIfDenied skips the test when the system denied a link (a container
// without CAP_SYS_ADMIN, say); other errors are the test's to report.
func skipIfDenied(t *testing.T, err error) {
	t.Helper()
	var se *SetupError
	if errors.As(err, &se) && (errors.Is(err, unix.EPERM) || errors.Is(err, unix.EACCES) || errors.Is(err, unix.ENOENT)) {
		t.Skipf("this system denies it: %v", err)
	}
}

func testContext(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// The round trip across rtt=50ms is 50 ms plus the ferry's timer latency:
// the bound allows 10 ms of it for a busy machine.
func TestLinkRTT(t *testing.T) {
	l := newTestLink(t, "rtt=50ms")
	ctx := testContext(t, time.Minute)
	p, err := ProbeUDP(ctx, l, 100, 5*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	ct, err := ConnectTime(ctx, l, 10)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rtt=50ms: UDP median %v, TCP connect median %v, %d/%d/%d probes sent/reached/echoed", p.RTT, ct, p.Sent, p.Reached, p.Echoed)
	for what, got := range map[string]time.Duration{"UDP round trip": p.RTT, "TCP handshake": ct} {
		if got < 50*time.Millisecond || got > 60*time.Millisecond {
			t.Errorf("%s %v, want within [50ms, 60ms]", what, got)
		}
	}
	if p.Reached != p.Sent || p.Echoed != p.Sent {
		t.Errorf("a lossless link lost probes: %+v", p)
	}
}

// With loss=10% each way, 2000 probes up lose 200 ± 13.4 (one binomial
// standard deviation); the bound is 5 of them each way.
func TestLinkLoss(t *testing.T) {
	l := newTestLink(t, "rtt=2ms,loss=10%")
	ctx := testContext(t, time.Minute)
	p, err := ProbeUDP(ctx, l, 2000, 500*time.Microsecond)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loss=10%%: up %.2f%% of %d, down %.2f%% of %d", 100*p.UpLoss(), p.Sent, 100*p.DownLoss(), p.Reached)
	for _, c := range []struct {
		what string
		got  float64
		n    int
	}{{"up", p.UpLoss(), p.Sent}, {"down", p.DownLoss(), p.Reached}} {
		bound := 5 * math.Sqrt(0.1*0.9/float64(c.n))
		if math.Abs(c.got-0.1) > bound {
			t.Errorf("%s loss %.4f over %d probes, want 0.1 ± %.4f", c.what, c.got, c.n, bound)
		}
	}
	up, _ := l.Stats()
	if up.Lost == 0 || up.Overflow != 0 {
		t.Errorf("up stats %+v: want losses from the model and none from overflow", up)
	}
}

// rate=20mbit carries 20*1448/1500 = 19.3 Mbit/s of TCP payload (1500-byte
// packets, 52 bytes of IP and TCP headers with timestamps).
func TestLinkRate(t *testing.T) {
	l := newTestLink(t, "rtt=20ms,rate=20mbit")
	ctx := testContext(t, time.Minute)
	for _, up := range []bool{false, true} {
		got, err := Goodput(ctx, l, up, 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("rate=20mbit, up=%v: TCP goodput %v", up, got)
		if got < 15e6 || got > 20.5e6 {
			t.Errorf("up=%v: goodput %v, want within [15, 20.5] Mbit/s", up, got)
		}
	}
	u, d := l.Stats()
	if u.Largest > MTU || d.Largest > MTU {
		t.Errorf("packets larger than the MTU crossed the link (offloads on?): up %d, down %d bytes", u.Largest, d.Largest)
	}
}

// The unlimited link's ceiling: what the ferry carries when nothing but
// the machine limits it. Reported, and checked only against a floor far
// below this machine's, since the machine is shared.
func TestLinkCeiling(t *testing.T) {
	l := newTestLink(t, "delay=0s")
	ctx := testContext(t, time.Minute)
	got, err := Goodput(ctx, l, false, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	_, d := l.Stats()
	t.Logf("unlimited: TCP goodput %v; down %+v", got, d)
	if got < 100e6 {
		t.Errorf("unlimited link carried %v, want at least 100 Mbit/s", got)
	}
	if d.Largest > MTU {
		t.Errorf("a %d-byte packet crossed a %d-byte MTU link", d.Largest, MTU)
	}
}

// Calibrate puts the pieces together on a link with different directions.
func TestCalibrate(t *testing.T) {
	l := newTestLink(t, "rtt=30ms,down=40mbit,up=10mbit")
	ctx := testContext(t, time.Minute)
	c, err := Calibrate(ctx, l, CalibrateOptions{Probes: 100, Bulk: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", c)
	if c.UDPRTT < 30*time.Millisecond || c.UDPRTT > 40*time.Millisecond || c.TCPConnect < 30*time.Millisecond || c.TCPConnect > 40*time.Millisecond {
		t.Errorf("round trips UDP %v, TCP %v: want within [30ms, 40ms]", c.UDPRTT, c.TCPConnect)
	}
	if c.UpLoss != 0 || c.DownLoss != 0 {
		t.Errorf("a lossless link lost %.3f up, %.3f down", c.UpLoss, c.DownLoss)
	}
	if c.Down < 30e6 || c.Down > 40e6 || c.Up < 7.5e6 || c.Up > 10e6 {
		t.Errorf("goodput down %v (want 30..40 Mbit/s), up %v (want 7.5..10 Mbit/s)", c.Down, c.Up)
	}
	if c.UpStats.Packets == 0 || c.DownStats.Delivered == 0 {
		t.Errorf("calibration carries no link counters: %+v %+v", c.UpStats, c.DownStats)
	}
}

// TestLinkResetStats: ResetStats hands over the counters so far and
// starts again from zero, so a calibration's packets stay out of the
// counts of what follows it.
func TestLinkResetStats(t *testing.T) {
	l := newTestLink(t, "rtt=2ms")
	p, err := ProbeUDP(testContext(t, 10*time.Second), l, 20, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	up, down := l.ResetStats()
	if up.Packets != 20 || down.Packets != 20 || p.Echoed != 20 {
		t.Fatalf("reset returned up %+v down %+v after %+v, want 20 packets each way", up, down, p)
	}
	// (Delivered may still count the last echo: the ferry counts it once
	// its write returns, and the client may have read it before.)
	if up, down = l.Stats(); up.Packets != 0 || down.Packets != 0 || up.Bytes != 0 || down.Bytes != 0 {
		t.Fatalf("after reset: up %+v down %+v, want no packets", up, down)
	}
}

// A run calibrates with transfers of max(500ms, 6 RTT) each way (the
// command's sizing): at rtt >= 20ms the warm-up must leave slow start
// behind, or the goodput reads low (46.1 Mbit/s at rtt=50ms before
// SlowStart, for 48.27). rate=50mbit carries 50*1448/1500 = 48.27 Mbit/s
// of TCP payload; the bound is 5% of it.
func TestLinkRateAfterSlowStart(t *testing.T) {
	const payload = 50e6 * 1448 / 1500
	for _, rtt := range []time.Duration{20 * time.Millisecond, 50 * time.Millisecond} {
		t.Run(rtt.String(), func(t *testing.T) {
			l := newTestLink(t, "rate=50mbit,rtt="+rtt.String())
			ctx := testContext(t, time.Minute)
			for _, up := range []bool{false, true} {
				start := time.Now()
				got, err := Goodput(ctx, l, up, max(500*time.Millisecond, 6*rtt))
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("rtt=%v,rate=50mbit up=%v: TCP goodput %v (%.1f%% of %.2f Mbit/s), took %v", rtt, up, got, 100*float64(got)/payload, payload/1e6, time.Since(start).Round(time.Millisecond))
				if math.Abs(float64(got)/payload-1) > 0.05 {
					t.Errorf("up=%v: goodput %v, want %.2f Mbit/s ± 5%%", up, got, payload/1e6)
				}
			}
		})
	}
}
