package testenv

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// SkipWithoutPrivilege skips under -short and where links cannot be made.
func SkipWithoutPrivilege(t *testing.T) {
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

// SkipIfDenied skips the test when err is a setup error (of type S, e.g.
// *netem.SetupError) from the system denying a link (a container without
// CAP_SYS_ADMIN, say); other errors are the test's to report.
func SkipIfDenied[S error](t *testing.T, err error) {
	t.Helper()
	var se S
	if errors.As(err, &se) && (errors.Is(err, unix.EPERM) || errors.Is(err, unix.EACCES) || errors.Is(err, unix.ENOENT)) {
		t.Skipf("this system denies it: %v", err)
	}
}

// Link opens a link for the spec text with open (netem's Parse then
// NewLink), or skips the test with the reason when this system cannot
// (its setup errors are of type S); the link is closed when the test
// ends, and a failure to close fails it.
func Link[S error, L io.Closer](t *testing.T, text string, open func(text string) (L, error)) L {
	t.Helper()
	SkipWithoutPrivilege(t)
	l, err := open(text)
	SkipIfDenied[S](t, err)
	if err != nil {
		t.Fatalf("link %s: %v", text, err)
	}
	t.Cleanup(func() {
		if err := l.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return l
}

// Context is a context that ends after d or when the test does.
func Context(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
