package cli

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalExit: a command a signal ended exits 128 plus its number; one
// that failed otherwise, or succeeded before it, keeps its own code.
func TestSignalExit(t *testing.T) {
	for _, tc := range []struct {
		cause error
		code  int
		want  int
	}{
		{interrupted{Signal: syscall.SIGINT}, exitFailure, 130},
		{interrupted{Signal: syscall.SIGTERM}, exitFailure, 143},
		{interrupted{Signal: syscall.SIGINT}, exitOK, exitOK},
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

func TestRunInterruptedKeepsPartialResults(t *testing.T) {
	t.Parallel() // see TestMain
	if testing.Short() {
		t.Skip("a run cut after 12 s: not under -short (go test ./internal/cli runs it)")
	}
	out := t.TempDir()
	// A warm-up round (two 0.6 s repetitions) comes first, then rounds of
	// the same: 12 s ends the run within small-sequential's 16 rounds (20 s
	// quiet), after its first rounds even on a starved machine (6 s of 8
	// rounds once cut it before its first, four tests beside it and two
	// busy loops).
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Second)
	defer cancel()
	var stdout, stderr syncBuffer
	code := Main(ctx, []string{"run", "--protocols", "h1,h2c", "--scenarios", "small-sequential,small-concurrent",
		"--duration", "500ms", "--repeat", "16", "--out", out}, &stdout, &stderr)
	if code != exitFailure {
		t.Fatalf("exit %d, want %d: %s", code, exitFailure, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted") || !strings.Contains(stdout.String(), "PARTIAL") {
		t.Errorf("no partial notice:\nstdout %s\nstderr %s", stdout.String(), stderr.String())
	}
	res, _ := readResults(t, out)
	if !res.Partial || len(res.Cells) == 0 {
		t.Fatalf("partial %v with %d cells, want a partial run with what it measured", res.Partial, len(res.Cells))
	}
	if n := len(res.Cells[0].Repetitions); n == 0 || n >= 16 {
		t.Errorf("first cell has %d repetitions, want some but not all 16", n)
	}
}

// TestSignalContextEnds: a SIGTERM to this process ends the context with
// the signal as its cause, whose exit code is 128+15; stop ends it
// without one.
func TestSignalContextEnds(t *testing.T) {
	ctx, stop := SignalContext()
	defer stop()
	if _, ok := signalExitCode(ctx); ok {
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
	var in interrupted
	if !errors.As(context.Cause(ctx), &in) || in.Signal != syscall.SIGTERM {
		t.Fatalf("cause %v, want SIGTERM", context.Cause(ctx))
	}
	if code, ok := signalExitCode(ctx); !ok || code != 143 {
		t.Fatalf("exit code %d, %v: want 143", code, ok)
	}
	ctx2, stop2 := SignalContext()
	stop2()
	if _, ok := signalExitCode(ctx2); ok || ctx2.Err() == nil {
		t.Fatalf("stopped: err %v, want cancelled with no exit code", ctx2.Err())
	}
}
