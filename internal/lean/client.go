package lean

import (
	"context"
	"time"

	"github.com/httpvs/httpvs/internal/lean/h1"
	"github.com/httpvs/httpvs/internal/lean/h2"
	"github.com/httpvs/httpvs/internal/lean/h3"
	"github.com/httpvs/httpvs/internal/lean/internal/target"
	"github.com/httpvs/httpvs/transport"
)

// Request is the request a Client repeats.
type Request = target.Request

// Response is what a lean request returns.
type Response = target.Response

// Client holds the connection of one transport to one target: a
// single connection, redialed when it fails. HTTP/1.1 clients serve one
// Stream; HTTP/2 clients serve many, multiplexed.
type Client struct {
	t *target.Target

	// OnDial, if set before the first request, is called after each
	// connection the client opens, with its TCP connect time and its TLS
	// handshake time (0 without TLS), on the goroutine that dialed.
	OnDial func(connect, handshake time.Duration)

	h1 *h1.Client // HTTP/1.1
	h2 *h2.Client // HTTP/2: the shared connection
	h3 *h3.Client // HTTP/3: the shared connection
}

// NewClient returns a lean client for opts.Protocol, which must be h1,
// h1-tls, h2c, h2 or h3.
func NewClient(opts transport.ClientOptions, req Request) (*Client, error) {
	if !Supports(opts.Protocol) {
		return nil, &UnsupportedError{Protocol: opts.Protocol}
	}
	t, err := target.New(opts, req)
	if err != nil {
		return nil, err
	}
	c := &Client{t: t}
	t.OnDial = c.dialed
	switch opts.Protocol.Version() {
	case 1:
		c.h1 = h1.NewClient(t)
	case 2:
		c.h2 = h2.NewClient(t, opts.Config)
	default:
		c.h3 = h3.NewClient(t, opts.Config)
	}
	return c, nil
}

// Protocol returns the transport the client speaks.
func (c *Client) Protocol() transport.Protocol { return c.t.Proto }

// Connections returns how many connections the client has opened.
func (c *Client) Connections() int64 { return c.t.Conns() }

// Close closes the client's HTTP/2 or HTTP/3 connection; HTTP/1.1
// streams close their own connections when their context ends.
func (c *Client) Close() error {
	if c.h2 != nil {
		c.h2.Close()
	}
	if c.h3 != nil {
		c.h3.Close()
	}
	return nil
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
	h1 *h1.Stream
	h2 *h2.Stream
	h3 *h3.Stream
}

// NewStream returns a stream whose requests are aborted when ctx ends.
func (c *Client) NewStream(ctx context.Context) *Stream {
	switch {
	case c.h2 != nil:
		return &Stream{c: c, h2: c.h2.NewStream(ctx)}
	case c.h3 != nil:
		return &Stream{c: c, h3: c.h3.NewStream(ctx)}
	}
	return &Stream{c: c, h1: c.h1.NewStream(ctx)}
}

// Do sends the client's request and reads the whole response, giving up
// after timeout.
func (s *Stream) Do(timeout time.Duration) (Response, error) {
	switch {
	case s.h2 != nil:
		return s.h2.Do(timeout)
	case s.h3 != nil:
		return s.h3.Do(timeout)
	}
	return s.h1.Do(timeout)
}
