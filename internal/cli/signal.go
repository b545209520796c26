package cli

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// Interrupted is the cause of a context SignalContext ended: the signal
// that ended it.
type Interrupted struct{ Signal syscall.Signal }

func (i Interrupted) Error() string { return i.Signal.String() + " received" }

// SignalContext returns a context cancelled at the first SIGINT or
// SIGTERM, with an Interrupted cause naming it, for Main: a command it
// interrupts keeps and reports what it measured, and Main exits 128 plus
// the signal's number (130 for Ctrl-C), as a shell expects of an
// interrupted command. stop releases the signals.
func SignalContext() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			sig, _ := s.(syscall.Signal)
			cancel(Interrupted{Signal: sig})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(context.Canceled)
	}
}

// signalExit is the exit code of a command that did not succeed because
// a signal ended ctx (128 plus its number); code otherwise.
func signalExit(ctx context.Context, code int) int {
	var in Interrupted
	if code != exitOK && errors.As(context.Cause(ctx), &in) && in.Signal > 0 {
		return 128 + int(in.Signal)
	}
	return code
}
