//go:build !linux

package pin

import (
	"context"
	"os/exec"
	"time"
)

// Available returns ErrUnsupported: there is no affinity mask to read.
func Available() ([]int, error) { return nil, ErrUnsupported }

// Self returns ErrUnsupported.
func Self([]int) (func(), error) { return nil, ErrUnsupported }

// Process returns ErrUnsupported.
func Process(int, []int) error { return ErrUnsupported }

// Start starts cmd as is when cpus is empty, and returns ErrUnsupported
// otherwise.
func Start(cmd *exec.Cmd, cpus []int) error {
	if len(cpus) == 0 {
		return cmd.Start()
	}
	return ErrUnsupported
}

// Foreign returns ErrUnsupported: there is no /proc/stat to read.
func Foreign(context.Context, time.Duration) (float64, error) { return 0, ErrUnsupported }
