// Package target holds what lean's protocol packages share about the one
// target a client repeats its request against: the request and what comes
// back (Request, Response), how connections to it are dialed and counted
// (Target), what a closed loop is asked to do (Loop), the failures the
// lean client detects itself (Error), and the prefixed integers of the
// header blocks h2 and h3 read (ReadPrefixInt).
package target

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go/http3"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/transport"
)

// ALPN protocol IDs (RFC 7301's registry) the lean clients offer: TLS's
// words, not httpvs's transport names, though they share "h2" and "h3".
const (
	ALPNHTTP2 = "h2"              // RFC 9113, section 3.2
	ALPNHTTP3 = http3.NextProtoH3 // RFC 9114, section 3.1
)

// Target is where a client's connections go and how they are made: TCP,
// then TLS with the transport's ALPN, or QUIC (HTTP/3 dials with TLS and
// Network itself). Its fields are set by New and not changed after.
type Target struct {
	Proto   transport.Protocol // the transport spoken
	Addr    string             // host:port
	TLS     *tls.Config        // nil for cleartext transports
	Dialer  net.Dialer         // its Timeout bounds each dial and handshake
	Network transport.Network  // where sockets are made; nil for this process's network
	Req     Request            // the request repeated; its Method is set

	// OnDial, if set, is called after each connection opened with its TCP
	// connect time and its TLS handshake time (0 without TLS), on the
	// goroutine that dialed.
	OnDial func(connect, handshake time.Duration)

	conns atomic.Int64
}

// New checks opts and req and returns their target. It does not check
// that the lean client speaks opts.Protocol.
func New(opts transport.ClientOptions, req Request) (*Target, error) {
	if err := opts.Config.Validate(); err != nil {
		return nil, err
	}
	if req.URL == nil || req.URL.Host == "" {
		return nil, fmt.Errorf("lean request needs an absolute URL")
	}
	if err := opts.Protocol.CheckScheme(req.URL.Scheme); err != nil {
		return nil, err
	}
	if req.Method == "" {
		req.Method = http.MethodGet
	}
	t := &Target{
		Proto:   opts.Protocol,
		Addr:    dial.HostPort(req.URL),
		Req:     req,
		Dialer:  net.Dialer{Timeout: opts.Config.Effective().DialTimeout},
		Network: opts.Network,
	}
	if opts.Protocol.TLS() {
		t.TLS = &tls.Config{RootCAs: opts.RootCAs, InsecureSkipVerify: opts.Insecure, MinVersion: tls.VersionTLS12, ServerName: req.URL.Hostname()}
		if opts.ServerName != "" {
			t.TLS.ServerName = opts.ServerName
			if t.Req.Host == "" || t.Req.Host == req.URL.Host {
				t.Req.Host = opts.Authority(req.URL)
			}
		}
		switch opts.Protocol {
		case transport.H2:
			t.TLS.NextProtos = []string{ALPNHTTP2}
		case transport.H3:
			t.TLS.NextProtos = []string{ALPNHTTP3}
			t.TLS.MinVersion = tls.VersionTLS13
			t.TLS.ClientSessionCache = opts.SessionCache
		default:
			t.TLS.NextProtos = []string{"http/1.1"}
		}
	}
	return t, nil
}

// Conns returns how many connections have been opened to t.
func (t *Target) Conns() int64 { return t.conns.Load() }

// Connected counts a connection opened without Dial or DialVia (an event
// loop's own socket, a QUIC connection).
func (t *Target) Connected() { t.conns.Add(1) }

// Dialed reports a new connection's phases to OnDial, if set.
func (t *Target) Dialed(connect, handshake time.Duration) {
	if t.OnDial != nil {
		t.OnDial(connect, handshake)
	}
}

// Dial opens one TCP connection, with TLS if t has it, and checks the
// negotiated protocol.
func (t *Target) Dial(ctx context.Context) (net.Conn, error) {
	return t.DialVia(ctx, nil)
}

// DialVia is Dial with wrap, if set, replacing the TCP connection before
// any TLS handshake.
func (t *Target) DialVia(ctx context.Context, wrap func(net.Conn) (net.Conn, error)) (net.Conn, error) {
	start := time.Now()
	conn, err := dial.TCP(ctx, t.Network, &t.Dialer, "tcp", t.Addr)
	if err != nil {
		return nil, err
	}
	if wrap != nil {
		if conn, err = wrap(conn); err != nil {
			return nil, err
		}
	}
	connected := time.Now()
	t.conns.Add(1)
	if t.TLS == nil {
		t.Dialed(connected.Sub(start), 0)
		return conn, nil
	}
	tc := tls.Client(conn, t.TLS)
	if err := dial.Handshake(ctx, tc, t.Addr, t.Dialer.Timeout); err != nil {
		conn.Close()
		return nil, err
	}
	got := tc.ConnectionState().NegotiatedProtocol
	want := t.TLS.NextProtos[0]
	if got != want && !(t.Proto == transport.H1TLS && got == "") {
		tc.Close()
		gotProto := transport.H1TLS
		if got == ALPNHTTP2 {
			gotProto = transport.H2
		}
		return nil, &transport.ProtocolError{Want: t.Proto, Got: gotProto}
	}
	t.Dialed(connected.Sub(start), time.Since(connected))
	return tc, nil
}
