package lean

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sort"
	"sync/atomic"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// Request is the request a Client repeats.
type Request struct {
	Method string      // GET if empty
	URL    *url.URL    // http:// or https://
	Header http.Header // extra headers; Host, Content-Length and hop-by-hop ones are set by the client
	Body   []byte      // sent with each request; nil for none
}

// Response is what a lean request returns.
type Response struct {
	Status    int   // HTTP status code
	BodyBytes int64 // response body bytes read
	// FirstByte is when the response's first byte arrived (its HEADERS
	// frame on HTTP/2); in a Loop, the clock reading of the socket
	// read that brought it. Zero if nothing arrived.
	FirstByte time.Time
}

// Client holds the connection of one transport to one target: a
// single connection, redialed when it fails. HTTP/1.1 clients serve one
// Stream; HTTP/2 clients serve many, multiplexed.
type Client struct {
	proto   transport.Protocol
	addr    string
	tlsConf *tls.Config
	dialer  net.Dialer
	network transport.Network // where sockets are made; nil for this process's network
	req     Request
	conns   atomic.Int64

	// OnDial, if set before the first request, is called after each
	// connection the client opens, with its TCP connect time and its TLS
	// handshake time (0 without TLS), on the goroutine that dialed.
	OnDial func(connect, handshake time.Duration)

	h1req    []byte  // HTTP/1.1: the serialized request
	h2       *h2Pool // HTTP/2: the shared connection
	h3       *h3Pool // HTTP/3: the shared connection
	readSize int     // HTTP/3: each stream's read buffer, bytes
}

// NewClient returns a lean client for opts.Protocol, which must be h1,
// h1-tls, h2c, h2 or h3.
func NewClient(opts transport.ClientOptions, req Request) (*Client, error) {
	if !Supports(opts.Protocol) {
		return nil, &UnsupportedError{Protocol: opts.Protocol}
	}
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
	c := &Client{
		proto:   opts.Protocol,
		addr:    hostPort(req.URL),
		req:     req,
		dialer:  net.Dialer{Timeout: opts.Config.Effective().DialTimeout},
		network: opts.Network,
	}
	if opts.Protocol.TLS() {
		c.tlsConf = &tls.Config{RootCAs: opts.RootCAs, InsecureSkipVerify: opts.Insecure, MinVersion: tls.VersionTLS12, ServerName: req.URL.Hostname()}
		switch opts.Protocol {
		case transport.H2:
			c.tlsConf.NextProtos = []string{"h2"}
		case transport.H3:
			c.tlsConf.NextProtos = []string{"h3"}
			c.tlsConf.MinVersion = tls.VersionTLS13
			c.tlsConf.ClientSessionCache = opts.SessionCache
		default:
			c.tlsConf.NextProtos = []string{"http/1.1"}
		}
	}
	switch opts.Protocol.Version() {
	case 1:
		c.h1req = serializeH1(req)
	case 2:
		c.h2 = newH2Pool(c, opts.Config)
	default:
		c.h3 = newH3Pool(c, opts.Config)
		c.readSize = opts.Config.EffectiveReadSize()
	}
	return c, nil
}

// transport.Protocol returns the transport the client speaks.
func (c *Client) Protocol() transport.Protocol { return c.proto }

// Connections returns how many connections the client has opened.
func (c *Client) Connections() int64 { return c.conns.Load() }

// Close closes the client's HTTP/2 or HTTP/3 connection; HTTP/1.1
// streams close their own connections when their context ends.
func (c *Client) Close() error {
	if c.h2 != nil {
		c.h2.close()
	}
	if c.h3 != nil {
		c.h3.close()
	}
	return nil
}

// dial opens one connection and checks the negotiated protocol.
func (c *Client) dial(ctx context.Context) (net.Conn, error) {
	return c.dialVia(ctx, nil)
}

// dialVia is dial with wrap, if set, replacing the TCP connection before
// any TLS handshake.
func (c *Client) dialVia(ctx context.Context, wrap func(net.Conn) (net.Conn, error)) (net.Conn, error) {
	start := time.Now()
	conn, err := transport.DialIn(ctx, c.network, &c.dialer, "tcp", c.addr)
	if err != nil {
		return nil, err
	}
	if wrap != nil {
		if conn, err = wrap(conn); err != nil {
			return nil, err
		}
	}
	connected := time.Now()
	c.conns.Add(1)
	if c.tlsConf == nil {
		c.dialed(connected.Sub(start), 0)
		return conn, nil
	}
	tc := tls.Client(conn, c.tlsConf)
	if err := transport.HandshakeTLS(ctx, tc, c.addr, c.dialer.Timeout); err != nil {
		conn.Close()
		return nil, err
	}
	got := tc.ConnectionState().NegotiatedProtocol
	want := c.tlsConf.NextProtos[0]
	if got != want && !(c.proto == transport.H1TLS && got == "") {
		tc.Close()
		gotProto := transport.H1TLS
		if got == "h2" {
			gotProto = transport.H2
		}
		return nil, &transport.ProtocolError{Want: c.proto, Got: gotProto}
	}
	c.dialed(connected.Sub(start), time.Since(connected))
	return tc, nil
}

// dialed reports a new connection's phases to OnDial.
func (c *Client) dialed(connect, handshake time.Duration) {
	if c.OnDial != nil {
		c.OnDial(connect, handshake)
	}
}

// Stream sends one request at a time on its client. It is not safe
// for concurrent use; make one per worker.
type Stream struct {
	c  *Client
	h1 *h1Stream
	h2 *h2Stream
	h3 *h3Stream
}

// NewStream returns a stream whose requests are aborted when ctx ends.
func (c *Client) NewStream(ctx context.Context) *Stream {
	switch {
	case c.h2 != nil:
		return &Stream{c: c, h2: newH2Stream(ctx, c.h2)}
	case c.h3 != nil:
		return &Stream{c: c, h3: newH3Stream(ctx, c.h3, c.readSize)}
	}
	return &Stream{c: c, h1: newH1Stream(ctx, c)}
}

// Do sends the client's request and reads the whole response, giving up
// after timeout.
func (s *Stream) Do(timeout time.Duration) (Response, error) {
	switch {
	case s.h2 != nil:
		return s.h2.do(timeout)
	case s.h3 != nil:
		return s.h3.do(timeout)
	}
	return s.h1.do(timeout)
}

func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	if u.Scheme == "https" {
		return net.JoinHostPort(u.Hostname(), "443")
	}
	return net.JoinHostPort(u.Hostname(), "80")
}

// sortedHeaderKeys returns h's keys in order, so requests are stable.
func sortedHeaderKeys(h http.Header) []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
