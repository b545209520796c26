package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/internal/runfiles"
	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/transport"
)

// startProfile profiles into dir (--profile) for get and load, the
// profiles named name: the client and, at target's server, an httpvs
// serve --profiling; a profile not taken is a line on stderr. stop ends
// it. No dir, no profile.
func (e *env) startProfile(dir, target, name string) (stop func(), err error) {
	if dir == "" {
		return func() {}, nil
	}
	p, err := serverctl.NewProfiler(dir, serverctl.ProfileServerURL(target), nil, func(err error) { printProfileError(e.stderr, err) })
	if errors.As(err, new(*serverctl.CleartextTokenError)) {
		return nil, usagef("--profile: %v", err)
	} else if err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	end := p.Start(runfiles.SafeFileName(name))
	return func() { end() }, nil
}

// printProfileError says on w that a profile was not taken or written.
func printProfileError(w io.Writer, err error) {
	var pe *serverctl.ProfileError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	fmt.Fprintf(w, "httpvs: profile: %v\n", err)
}

// warnUDP says quic-go's UDP buffer warning, when it has one, before h3
// is measured.
func (e *env) warnUDP(p transport.Protocol) {
	if w := dial.UDPBufferWarning(); p == transport.H3 && w != "" {
		fmt.Fprintln(e.stderr, w)
	}
}
