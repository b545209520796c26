// Package interrupt turns SIGINT and SIGTERM into a context's end, for
// the command line: a command it interrupts keeps and reports what it
// measured, and exits as a shell expects of an interrupted command.
package interrupt

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// Interrupted is the cause of a context Context ended: the signal that
// ended it.
type Interrupted struct{ Signal syscall.Signal }

func (i Interrupted) Error() string { return i.Signal.String() + " received" }

// Context returns a context cancelled at the first SIGINT or SIGTERM,
// with an Interrupted cause naming it. stop releases the signals.
func Context() (ctx context.Context, stop func()) {
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

// ExitCode is the exit code of a command a signal ended (ctx's cause an
// Interrupted): 128 plus its number (130 for Ctrl-C); false when no
// signal ended ctx.
func ExitCode(ctx context.Context) (int, bool) {
	var in Interrupted
	if errors.As(context.Cause(ctx), &in) && in.Signal > 0 {
		return 128 + int(in.Signal), true
	}
	return 0, false
}
