//go:build !linux

package cli

import (
	"context"
	"io"
)

// usernsNeeded is false off Linux, where emulated links are refused anyway.
func usernsNeeded() bool { return false }

// usernsRun does nothing off Linux.
func usernsRun(context.Context, []string, io.Writer, io.Writer) (bool, error) { return false, nil }
