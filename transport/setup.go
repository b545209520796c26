package transport

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/httpvs/httpvs/stats"
)

// SetupTimeoutError is a connection that was not set up in time: its TCP
// connect, TLS handshake or QUIC handshake ran past the bound the client's
// dial timeout (config.Client.DialTimeout) sets, while the caller's own
// context (a request's timeout, say) had not ended. Classify counts it as a
// timeout; its text names the stage and the bound that expired, which is
// not the request's.
type SetupTimeoutError struct {
	// Stage is what did not complete: "TCP connect", "TLS handshake" or
	// "QUIC handshake".
	Stage string
	// Addr is the host:port dialed.
	Addr string
	// Timeout is the bound that expired: the dial timeout, or for QUIC
	// quic-go's handshake timeout, twice its handshake idle timeout (which
	// is the dial timeout), when packets kept coming but the handshake did
	// not end.
	Timeout time.Duration
	// Bound names Timeout, e.g. "the dial timeout".
	Bound string
	// Err is what the dial or handshake returned.
	Err error
}

func (e *SetupTimeoutError) Error() string {
	return fmt.Sprintf("%s to %s did not complete within %v, %s: %v", e.Stage, e.Addr, e.Timeout, e.Bound, e.Err)
}

// Unwrap returns Err.
func (e *SetupTimeoutError) Unwrap() error { return e.Err }

// Kind says a SetupTimeoutError is a timeout.
func (e *SetupTimeoutError) Kind() stats.ErrorKind { return stats.ErrTimeout }

// setupTimeout returns err as a *SetupTimeoutError when it is a timeout
// and ctx, the caller's, has not ended (so the set-up's own bound
// expired); otherwise err unchanged.
func setupTimeout(ctx context.Context, stage, addr string, timeout time.Duration, err error) error {
	if err == nil || timeout <= 0 || ctx.Err() != nil || Classify(err) != stats.ErrTimeout {
		return err
	}
	var already *SetupTimeoutError
	if errors.As(err, &already) {
		return err
	}
	return &SetupTimeoutError{Stage: stage, Addr: addr, Timeout: timeout, Bound: "the dial timeout", Err: err}
}

// quicSetupTimeout is setupTimeout for a QUIC dial with conf: quic-go
// ends a handshake that hears nothing for conf.HandshakeIdleTimeout, or
// that has not completed in twice that.
func quicSetupTimeout(ctx context.Context, addr string, conf *quic.Config, err error) error {
	var idle time.Duration
	if conf != nil {
		idle = conf.HandshakeIdleTimeout
	}
	if idle <= 0 {
		idle = quicDefaultHandshakeIdleTimeout
	}
	var hs *quic.HandshakeTimeoutError
	if errors.As(err, &hs) && ctx.Err() == nil {
		return &SetupTimeoutError{Stage: "QUIC handshake", Addr: addr, Timeout: 2 * idle,
			Bound: "quic-go's handshake timeout, twice the dial timeout", Err: err}
	}
	err = setupTimeout(ctx, "QUIC handshake", addr, idle, err)
	var st *SetupTimeoutError
	if errors.As(err, &st) {
		st.Bound = "the dial timeout (quic-go's handshake idle timeout)"
	}
	return err
}

// quicDefaultHandshakeIdleTimeout is quic-go's when quic.Config leaves it
// zero.
const quicDefaultHandshakeIdleTimeout = 5 * time.Second

// handshakeTLS is dial.Handshake: tc's handshake, bounded by timeout (the dial timeout)
// as well as ctx; a handshake that timeout ends is a *SetupTimeoutError
// naming addr.
func handshakeTLS(ctx context.Context, tc *tls.Conn, addr string, timeout time.Duration) error {
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return setupTimeout(ctx, "TLS handshake", addr, timeout, tc.HandshakeContext(hctx))
}
