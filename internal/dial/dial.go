// Package dial sets up connections as transport's clients do, for the
// clients built beside them (the lean client, the gRPC bookstore client,
// serverctl's profiles, the browser's probe): inside a network (an
// emulated link's namespace), with a set-up that runs past its bound
// reported as a *transport.SetupTimeoutError, and quic-go configured from
// config.Client.
//
// TCP, QUIC, QUICOn and Handshake are transport's own, which it installs when it
// is initialised: transport owns the errors they return. A package that
// calls them imports transport (every caller does, for its protocols).
//
// LoopbackHost is the module's one test of whether a host is this
// machine's loopback, for the listeners, targets and tokens that refuse
// to go beyond it.
package dial

import (
	"context"
	"crypto/tls"
	"net"
	"time"

	"github.com/quic-go/quic-go"
)

// Network is where sockets are made (transport.Network): nil is the
// process's own network.
type Network interface {
	Run(fn func() error) error
}

// In calls fn inside n, or directly when n is nil.
func In(n Network, fn func() error) error {
	if n == nil {
		return fn()
	}
	return n.Run(fn)
}

// The dials of transport's clients, installed by transport.
var (
	// TCP dials addr as d does, from inside n. Inside a namespace the
	// whole dial, TCP handshake included, runs on the thread that joined
	// it. A connect that d.Timeout ends is a *transport.SetupTimeoutError.
	TCP func(ctx context.Context, n Network, d *net.Dialer, network, addr string) (net.Conn, error)
	// QUIC opens a QUIC connection to addr (host:port), 0-RTT allowed, as
	// quic.DialAddrEarly does: from a UDP socket of its own, made inside
	// n, that closes with the connection. A handshake that quic-go's
	// handshake timeouts end is a *transport.SetupTimeoutError.
	QUIC func(ctx context.Context, n Network, addr string, tlsConf *tls.Config, conf *quic.Config) (*quic.Conn, error)
	// QUICOn opens a QUIC connection to addr as QUIC does, 0-RTT allowed,
	// from tr's socket (which stays open when the connection closes); its
	// errors are QUIC's.
	QUICOn func(ctx context.Context, tr *quic.Transport, addr string, tlsConf *tls.Config, conf *quic.Config) (*quic.Conn, error)
	// Handshake runs tc's handshake, bounded by timeout (the dial
	// timeout) as well as ctx; a handshake that timeout ends is a
	// *transport.SetupTimeoutError naming addr.
	Handshake func(ctx context.Context, tc *tls.Conn, addr string, timeout time.Duration) error
)
