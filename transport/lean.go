package transport

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sort"
	"sync/atomic"
	"time"
)

// The lean engine is a load generator's client for h1, h1-tls, h2c and h2
// that does only what a benchmark needs: it repeats one request, reads
// each response's status and counts its body, and allocates nothing per
// request on HTTP/1.1. It exists so that the generator is not what gets
// measured; net/http's client (the std engine) stays what users measure
// when they ask about Go's own stack.

// LeanRequest is the request a LeanClient repeats.
type LeanRequest struct {
	Method string      // GET if empty
	URL    *url.URL    // http:// or https://
	Header http.Header // extra headers; Host, Content-Length and hop-by-hop ones are set by the client
	Body   []byte      // sent with each request; nil for none
}

// LeanResponse is what a lean request returns.
type LeanResponse struct {
	Status    int   // HTTP status code
	BodyBytes int64 // response body bytes read
	// FirstByte is when the response's first byte arrived (its HEADERS
	// frame on HTTP/2); in a LeanLoop, the clock reading of the socket
	// read that brought it. Zero if nothing arrived.
	FirstByte time.Time
}

// ErrLeanStreamReset is returned when the server resets an HTTP/2 stream.
var ErrLeanStreamReset = errors.New("stream reset by the server")

// LeanClient holds the connection of one transport to one target: a
// single connection, redialed when it fails. HTTP/1.1 clients serve one
// LeanStream; HTTP/2 clients serve many, multiplexed.
type LeanClient struct {
	proto   Protocol
	addr    string
	tlsConf *tls.Config
	dialer  net.Dialer
	req     LeanRequest
	conns   atomic.Int64

	// OnDial, if set before the first request, is called after each
	// connection the client opens, with its TCP connect time and its TLS
	// handshake time (0 without TLS), on the goroutine that dialed.
	OnDial func(connect, handshake time.Duration)

	h1req []byte  // HTTP/1.1: the serialized request
	h2    *h2Pool // HTTP/2: the shared connection
}

// NewLeanClient returns a lean client for opts.Protocol, which must be h1,
// h1-tls, h2c or h2.
func NewLeanClient(opts ClientOptions, req LeanRequest) (*LeanClient, error) {
	if opts.Protocol == H3 {
		return nil, fmt.Errorf("the fast engine speaks h1, h2c, h1-tls and h2; use the std engine for h3")
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
	c := &LeanClient{
		proto:  opts.Protocol,
		addr:   hostPort(req.URL),
		req:    req,
		dialer: net.Dialer{Timeout: opts.Config.dialTimeout()},
	}
	if opts.Protocol.TLS() {
		c.tlsConf = &tls.Config{RootCAs: opts.RootCAs, InsecureSkipVerify: opts.Insecure, MinVersion: tls.VersionTLS12, ServerName: req.URL.Hostname()}
		if opts.Protocol == H2 {
			c.tlsConf.NextProtos = []string{"h2"}
		} else {
			c.tlsConf.NextProtos = []string{"http/1.1"}
		}
	}
	if opts.Protocol.Version() == 1 {
		c.h1req = serializeH1(req)
	} else {
		c.h2 = newH2Pool(c, opts.Config)
	}
	return c, nil
}

// Protocol returns the transport the client speaks.
func (c *LeanClient) Protocol() Protocol { return c.proto }

// Connections returns how many connections the client has opened.
func (c *LeanClient) Connections() int64 { return c.conns.Load() }

// Close closes the client's HTTP/2 connection; HTTP/1.1 streams close
// their own connections when their context ends.
func (c *LeanClient) Close() error {
	if c.h2 != nil {
		c.h2.close()
	}
	return nil
}

// dial opens one connection and checks the negotiated protocol.
func (c *LeanClient) dial(ctx context.Context) (net.Conn, error) {
	start := time.Now()
	conn, err := c.dialer.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		return nil, err
	}
	connected := time.Now()
	c.conns.Add(1)
	if c.tlsConf == nil {
		c.dialed(connected.Sub(start), 0)
		return conn, nil
	}
	tc := tls.Client(conn, c.tlsConf)
	hctx, cancel := context.WithTimeout(ctx, c.dialer.Timeout)
	defer cancel()
	if err := tc.HandshakeContext(hctx); err != nil {
		conn.Close()
		return nil, err
	}
	got := tc.ConnectionState().NegotiatedProtocol
	want := c.tlsConf.NextProtos[0]
	if got != want && !(c.proto == H1TLS && got == "") {
		tc.Close()
		gotProto := H1TLS
		if got == "h2" {
			gotProto = H2
		}
		return nil, &ProtocolError{Want: c.proto, Got: gotProto}
	}
	c.dialed(connected.Sub(start), time.Since(connected))
	return tc, nil
}

// dialed reports a new connection's phases to OnDial.
func (c *LeanClient) dialed(connect, handshake time.Duration) {
	if c.OnDial != nil {
		c.OnDial(connect, handshake)
	}
}

// LeanStream sends one request at a time on its client. It is not safe
// for concurrent use; make one per worker.
type LeanStream struct {
	c  *LeanClient
	h1 *h1Stream
	h2 *h2Stream
}

// NewStream returns a stream whose requests are aborted when ctx ends.
func (c *LeanClient) NewStream(ctx context.Context) *LeanStream {
	if c.h2 != nil {
		return &LeanStream{c: c, h2: newH2Stream(ctx, c.h2)}
	}
	return &LeanStream{c: c, h1: newH1Stream(ctx, c)}
}

// Do sends the client's request and reads the whole response, giving up
// after timeout.
func (s *LeanStream) Do(timeout time.Duration) (LeanResponse, error) {
	if s.h2 != nil {
		return s.h2.do(timeout)
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
