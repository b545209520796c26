package cli

import (
	"context"

	"github.com/httpvs/httpvs/internal/interrupt"
)

// signalExit is the exit code of a command that did not succeed because
// a signal ended ctx (interrupt.ExitCode); code otherwise.
func signalExit(ctx context.Context, code int) int {
	if c, ok := interrupt.ExitCode(ctx); ok && code != exitOK {
		return c
	}
	return code
}
