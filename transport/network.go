package transport

import (
	"context"
	"crypto/tls"
	"net"

	"github.com/quic-go/quic-go"

	"github.com/httpvs/httpvs/internal/dial"
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

// init installs the dials internal/dial's callers use: this package's
// own, whose errors it owns.
func init() {
	dial.TCP = func(ctx context.Context, n dial.Network, d *net.Dialer, network, addr string) (net.Conn, error) {
		return dialIn(ctx, n, d, network, addr)
	}
	dial.QUIC = func(ctx context.Context, n dial.Network, addr string, tlsConf *tls.Config, conf *quic.Config) (*quic.Conn, error) {
		return dialQUICTimed(ctx, n, addr, tlsConf, conf)
	}
	dial.QUICOn = func(ctx context.Context, tr *quic.Transport, addr string, tlsConf *tls.Config, conf *quic.Config) (*quic.Conn, error) {
		raddr, err := net.ResolveUDPAddr("udp", addr)
		if err != nil {
			return nil, err
		}
		conn, err := tr.DialEarly(ctx, raddr, tlsConf, conf)
		return conn, quicSetupTimeout(ctx, addr, conf, err)
	}
	dial.Handshake = handshakeTLS
}

// dialIn is dial.TCP: addr dialed as d does, from inside n (the
// process's own network when n is nil). A connect that d.Timeout ends is
// a *SetupTimeoutError.
func dialIn(ctx context.Context, n Network, d *net.Dialer, network, addr string) (net.Conn, error) {
	var c net.Conn
	err := dial.In(n, func() (err error) {
		c, err = d.DialContext(ctx, network, addr)
		return err
	})
	return c, setupTimeout(ctx, "TCP connect", addr, d.Timeout, err)
}

// dialQUICTimed is dial.QUIC: a QUIC connection to addr from a UDP
// socket of its own made inside n. A handshake that quic-go's handshake
// timeouts end (conf's HandshakeIdleTimeout, the dial timeout in httpvs's
// clients) is a *SetupTimeoutError.
func dialQUICTimed(ctx context.Context, n Network, addr string, tlsConf *tls.Config, conf *quic.Config) (*quic.Conn, error) {
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
