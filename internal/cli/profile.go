package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/httpvs/httpvs/internal/profiling"
	"github.com/httpvs/httpvs/transport"
)

// newProfiler profiles into dir (--profile) for get and load: the client
// and, at serverURL, an httpvs serve --profiling; a profile not taken is
// a line on warn.
func newProfiler(dir, serverURL string, network transport.Network, warn io.Writer) (*profiling.Profiler, error) {
	p, err := profiling.NewProfiler(dir, serverURL, network, func(err error) { printProfileError(warn, err) })
	var cleartext *profiling.CleartextTokenError
	if errors.As(err, &cleartext) {
		return nil, usagef("--profile: %v", err)
	}
	if err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	return p, nil
}

// printProfileError says on w that a profile was not taken or written.
func printProfileError(w io.Writer, err error) {
	var pe *profiling.ProfileError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	fmt.Fprintf(w, "httpvs: profile: %v\n", err)
}
