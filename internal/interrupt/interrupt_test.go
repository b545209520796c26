package interrupt

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"
)

// TestSignalEndsContext: a SIGTERM to this process ends the context with
// the signal as its cause, whose exit code is 128+15; stop ends it
// without one.
func TestSignalEndsContext(t *testing.T) {
	ctx, stop := Context()
	defer stop()
	if _, ok := ExitCode(ctx); ok {
		t.Fatal("an exit code before any signal")
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not end the context")
	}
	var in Interrupted
	if !errors.As(context.Cause(ctx), &in) || in.Signal != syscall.SIGTERM {
		t.Fatalf("cause %v, want SIGTERM", context.Cause(ctx))
	}
	if code, ok := ExitCode(ctx); !ok || code != 143 {
		t.Fatalf("exit code %d, %v: want 143", code, ok)
	}
	ctx2, stop2 := Context()
	stop2()
	if _, ok := ExitCode(ctx2); ok || ctx2.Err() == nil {
		t.Fatalf("stopped: err %v, want cancelled with no exit code", ctx2.Err())
	}
}
