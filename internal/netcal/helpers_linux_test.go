package netcal

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/httpvs/httpvs/netem"
)

// newTestLink makes a link for text, or skips the test with the reason
// when this system cannot; the link is closed when the test ends.
func newTestLink(t *testing.T, text string) *netem.Link {
	t.Helper()
	skipWithoutPrivilege(t)
	spec, err := netem.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	l, err := netem.NewLink(spec)
	var se *netem.SetupError
	if errors.As(err, &se) && (errors.Is(err, unix.EPERM) || errors.Is(err, unix.EACCES) || errors.Is(err, unix.ENOENT)) {
		t.Skipf("this system denies it: %v", err)
	}
	if err != nil {
		t.Fatalf("NewLink(%s): %v", text, err)
	}
	t.Cleanup(func() {
		if err := l.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return l
}

// skipWithoutPrivilege skips under -short and where links cannot be made.
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

func testContext(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
