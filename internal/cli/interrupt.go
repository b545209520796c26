package cli

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// interrupted is the cause of a context SignalContext ended: the signal
// that ended it.
type interrupted struct{ Signal syscall.Signal }

func (i interrupted) Error() string { return i.Signal.String() + " received" }

// SignalContext returns a context cancelled at the first SIGINT or
// SIGTERM, with the signal as its cause, for cmd/httpvs to give Main: a
// command it interrupts keeps and reports what it measured, and exits as
// a shell expects of an interrupted command (signalExit). stop releases
// the signals. The library installs no handler; only the command does.
func SignalContext() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			sig, _ := s.(syscall.Signal)
			cancel(interrupted{Signal: sig})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(context.Canceled)
	}
}

// signalExitCode is the exit code of a command a signal ended (ctx's
// cause an interrupted): 128 plus its number (130 for Ctrl-C); false when
// no signal ended ctx.
func signalExitCode(ctx context.Context) (int, bool) {
	var in interrupted
	if errors.As(context.Cause(ctx), &in) && in.Signal > 0 {
		return 128 + int(in.Signal), true
	}
	return 0, false
}
