package cli

import (
	"context"
	"syscall"
	"testing"
)

// TestSignalExit: a command a signal ended exits 128 plus its number; one
// that failed otherwise, or succeeded before it, keeps its own code.
func TestSignalExit(t *testing.T) {
	for _, tc := range []struct {
		cause error
		code  int
		want  int
	}{
		{Interrupted{syscall.SIGINT}, exitFailure, 130},
		{Interrupted{syscall.SIGTERM}, exitFailure, 143},
		{Interrupted{syscall.SIGINT}, exitOK, exitOK},
		{context.DeadlineExceeded, exitFailure, exitFailure},
		{nil, exitUsage, exitUsage},
	} {
		ctx, cancel := context.WithCancelCause(context.Background())
		if tc.cause != nil {
			cancel(tc.cause)
		}
		if got := signalExit(ctx, tc.code); got != tc.want {
			t.Errorf("cause %v, code %d: exit %d, want %d", tc.cause, tc.code, got, tc.want)
		}
		cancel(nil)
	}
}
