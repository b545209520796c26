package transport

import (
	"context"
	"crypto/tls"
	"net"

	"github.com/quic-go/quic-go"
)

// Network is where a client makes its sockets: another network namespace,
// for example (*netem.Namespace is one). A nil Network is the process's
// own network.
type Network interface {
	// Run calls fn where sockets are to be made and returns fn's error.
	// A socket fn creates stays in that network whichever goroutine uses
	// it afterwards.
	Run(fn func() error) error
}

// InNetwork calls fn inside n, or directly when n is nil.
func InNetwork(n Network, fn func() error) error {
	if n == nil {
		return fn()
	}
	return n.Run(fn)
}

// DialIn dials addr as d does, from inside n (the process's own network
// when n is nil). Inside a namespace the whole dial, TCP handshake
// included, runs on the thread that joined it. A connect that d.Timeout
// ends is a *SetupTimeoutError.
func DialIn(ctx context.Context, n Network, d *net.Dialer, network, addr string) (net.Conn, error) {
	var c net.Conn
	err := InNetwork(n, func() (err error) {
		c, err = d.DialContext(ctx, network, addr)
		return err
	})
	return c, setupTimeout(ctx, "TCP connect", addr, d.Timeout, err)
}

// DialQUIC opens a QUIC connection to addr (host:port), 0-RTT allowed, as
// quic.DialAddrEarly does: from a UDP socket of its own, made inside n (the
// process's own network when n is nil), that closes with the connection.
// A handshake that quic-go's handshake timeouts end (conf's
// HandshakeIdleTimeout, the dial timeout in httpvs's clients) is a
// *SetupTimeoutError.
func DialQUIC(ctx context.Context, n Network, addr string, tlsConf *tls.Config, conf *quic.Config) (*quic.Conn, error) {
	conn, err := dialQUIC(ctx, n, addr, tlsConf, conf)
	return conn, quicSetupTimeout(ctx, addr, conf, err)
}

func dialQUIC(ctx context.Context, n Network, addr string, tlsConf *tls.Config, conf *quic.Config) (*quic.Conn, error) {
	if n == nil {
		return quic.DialAddrEarly(ctx, addr, tlsConf, conf)
	}
	raddr, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, err
	}
	var pc *net.UDPConn
	if err := n.Run(func() (err error) {
		pc, err = net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4zero})
		return err
	}); err != nil {
		return nil, err
	}
	conn, err := quic.DialEarly(ctx, pc, raddr, tlsConf, conf)
	if err != nil {
		pc.Close()
		return nil, err
	}
	go func() { // quic-go closes its transport, not a socket it was given
		<-conn.Context().Done()
		pc.Close()
	}()
	return conn, nil
}
