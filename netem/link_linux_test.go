package netem

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/testenv"
)

// newTestLink makes a link for spec, or skips the test with the reason
// when this system cannot; the link is closed when the test ends.
func newTestLink(t *testing.T, text string) *Link {
	t.Helper()
	return testenv.Link[*SetupError](t, text, func(text string) (*Link, error) {
		spec, err := Parse(text)
		if err != nil {
			return nil, err
		}
		return NewLink(spec)
	})
}

// TestLinkResetStats: ResetStats hands over the counters so far and
// starts again from zero, so a calibration's packets stay out of the
// counts of what follows it.
func TestLinkResetStats(t *testing.T) {
	l := newTestLink(t, "rtt=2ms")
	echoed, err := echoUDP(testenv.Context(t, 10*time.Second), l, 20, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	up, down := l.ResetStats()
	if up.Packets != 20 || down.Packets != 20 || echoed != 20 {
		t.Fatalf("reset returned up %+v down %+v after %d of 20 echoes, want 20 packets each way", up, down, echoed)
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
