package netem

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
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
	if testing.Short() {
		t.Skip("an emulated link: not under -short")
	}
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

// The unlimited link's ceiling: what the ferry carries when nothing but
// the machine limits it, reported; packets within the MTU. Its floor is
// a measured check (TestLinkCeilingFloor).
func TestLinkCeiling(t *testing.T) {
	l := newTestLink(t, "delay=0s,backend=tun")
	ctx := testContext(t, time.Minute)
	got, err := goodput(ctx, l, false, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	_, d := l.stats()
	t.Logf("unlimited: TCP goodput %v; down %+v", got, d)
	if got <= 0 {
		t.Errorf("unlimited link carried %v", got)
	}
	if d.Largest > mtu {
		t.Errorf("a %d-byte packet crossed a %d-byte MTU link", d.Largest, mtu)
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
	// Physics bounds the round trips from below and the goodput from
	// above; how close a loaded machine comes is a measured check
	// (TestCalibrateAtTheLink).
	if c.UDPRTT < 30*time.Millisecond || c.TCPConnect < 30*time.Millisecond {
		t.Errorf("round trips UDP %v, TCP %v: want at least 30ms", c.UDPRTT, c.TCPConnect)
	}
	if c.UpLoss != 0 || c.DownLoss != 0 {
		t.Errorf("a lossless link lost %.3f up, %.3f down", c.UpLoss, c.DownLoss)
	}
	if c.Down <= 0 || c.Down > 40e6 || c.Up <= 0 || c.Up > 10e6 {
		t.Errorf("goodput down %v (want at most 40 Mbit/s), up %v (want at most 10 Mbit/s)", c.Down, c.Up)
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
	p, err := probeUDP(testContext(t, 10*time.Second), l, 20, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	up, down := l.ResetStats()
	if up.Packets != 20 || down.Packets != 20 || p.Echoed != 20 {
		t.Fatalf("reset returned up %+v down %+v after %+v, want 20 packets each way", up, down, p)
	}
	// (Delivered may still count the last echo: the ferry counts it once
	// its write returns, and the client may have read it before.)
	if up, down = l.stats(); up.Packets != 0 || down.Packets != 0 || up.Bytes != 0 || down.Bytes != 0 {
		t.Fatalf("after reset: up %+v down %+v, want no packets", up, down)
	}
}

// TestTUNQueue checks the TUN devices' settings on both ends, as the
// kernel reports them: the MTU and the transmit ring of tunTxQueueLen
// packets (set through rtnetlink, which a user namespace's root may use).
func TestTUNQueue(t *testing.T) {
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skipf("ip (iproute2) is needed: %v", err)
	}
	l := newTestLink(t, "delay=0s,backend=tun")
	for _, ns := range []*Namespace{l.Client(), l.Server()} {
		var out bytes.Buffer
		cmd := exec.Command("ip", "-o", "link", "show")
		cmd.Stdout = &out
		if err := ns.Start(cmd); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
		var tun string
		for _, line := range strings.Split(out.String(), "\n") {
			if strings.Contains(line, "state UNKNOWN") && !strings.Contains(line, " lo:") {
				tun = line
			}
		}
		if !strings.Contains(tun, fmt.Sprintf("mtu %d ", mtu)) || !strings.Contains(tun, fmt.Sprintf(" qlen %d\\", tunTxQueueLen)) {
			t.Errorf("TUN device %q, want mtu %d and qlen %d in\n%s", tun, mtu, tunTxQueueLen, out.String())
		}
	}
}
