package netem

import (
	"context"
	"os"
	"runtime"
	"testing"
	"time"
)

// newTestLink makes a link for spec, or skips the test with the reason
// when this system cannot; the link is closed when the test ends.
func newTestLink(t *testing.T, text string) *Link {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to create network namespaces and TUN devices")
	}
	if _, err := os.Stat("/dev/net/tun"); err != nil {
		t.Skipf("needs /dev/net/tun: %v", err)
	}
	spec, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLink(spec)
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

func testContext(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func TestLinkSmoke(t *testing.T) {
	l := newTestLink(t, "rtt=20ms")
	ctx := testContext(t, 30*time.Second)
	p, err := ProbeUDP(ctx, l, 20, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("probe %+v", p)
	ct, err := ConnectTime(ctx, l, 3)
	t.Logf("connect %v %v, goroutines %d", ct, err, runtime.NumGoroutine())
}
