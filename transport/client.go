package transport

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/internal/wire"
	"github.com/httpvs/httpvs/stats"
)

// ClientOptions says which transport a Client speaks and how.
type ClientOptions struct {
	Protocol Protocol
	Config   config.Client
	// RootCAs are the CAs trusted for TLS transports; nil means the
	// system's pool.
	RootCAs *x509.CertPool
	// Insecure skips certificate verification (curl -k).
	Insecure bool
	// ServerName is the TLS server name sent (SNI) and verified for
	// h1-tls, h2 and h3; empty means the URL's host. TLS sends no name
	// for an IP address, and a server that keeps a certificate and a
	// site per name (Caddy) may then pick neither: set it to the name of
	// one, and requests to a URL naming an IP address carry it as their
	// Host (:authority) too (Authority), as curl --resolve sends them.
	ServerName string
	// MaxConnsPerHost limits HTTP/1.1 connections per host; zero means no
	// limit. HTTP/2 and HTTP/3 clients keep one connection per host
	// whatever it says.
	MaxConnsPerHost int
	// Network is where the client's sockets are made (TCP and UDP); nil
	// means the process's own network.
	Network Network
	// SessionCache, if set, keeps TLS session tickets so that a new
	// connection resumes an earlier session (h1-tls, h2, h3; over h3 a
	// request with method http3.MethodGet0RTT then goes out in 0-RTT);
	// nil means a full handshake on every connection, as with Go's zero
	// tls.Config.
	SessionCache tls.ClientSessionCache
	// BlockingSockets reads and writes the TCP connections (h1, h2c,
	// h1-tls, h2; on Linux) with blocking system calls outside Go's
	// network poller, as curl does: for a few long transfers, it spares
	// the wake-ups of parking on EAGAIN and of idle threads woken by
	// every packet (less system time and fewer context switches per GB).
	// Each connection then holds an OS thread while it waits, so leave it
	// off for many connections. Deadlines still work, armed at each call.
	BlockingSockets bool
}

// Client is an HTTP client bound to one transport. It refuses responses
// that arrive over any other transport and counts its connections' I/O.
type Client struct {
	proto    Protocol
	readSize int
	hc       *http.Client
	closeFn  func() error
	io       wire.IOCounter
	quic     wire.QUICCounter
	h2       wire.H2Counters // h2c clients only
	waits    waitCounter     // BlockingSockets only
}

// NewClient builds a client for opts.Protocol. Close it when done.
func NewClient(opts ClientOptions) (*Client, error) {
	if opts.Protocol < 0 || opts.Protocol >= numProtocols {
		return nil, fmt.Errorf("unknown transport %d", opts.Protocol)
	}
	if err := opts.Config.Validate(); err != nil {
		return nil, err
	}
	c := &Client{proto: opts.Protocol, readSize: int(opts.Config.Effective().ReadSize)}
	tlsConf := &tls.Config{RootCAs: opts.RootCAs, InsecureSkipVerify: opts.Insecure, MinVersion: tls.VersionTLS12,
		ClientSessionCache: opts.SessionCache, ServerName: opts.ServerName}
	var rt http.RoundTripper
	if opts.Protocol == H3 {
		rt = c.newH3(opts, tlsConf)
	} else {
		rt = c.newTCP(opts, tlsConf)
	}
	if opts.ServerName != "" && opts.Protocol.TLS() {
		rt = named{rt, opts}
	}
	c.hc = &http.Client{
		Transport: rt,
		// A benchmark measures the URL it was given: never follow redirects.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return c, nil
}

func (c *Client) newTCP(opts ClientOptions, tlsConf *tls.Config) *http.Transport {
	dialer := &net.Dialer{Timeout: opts.Config.Effective().DialTimeout}
	protos := new(http.Protocols)
	tr := &http.Transport{
		Proxy: nil, // measurements go straight to the target, never through a proxy
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := dialIn(ctx, opts.Network, dialer, network, addr)
			if err != nil {
				return nil, err
			}
			if opts.BlockingSockets {
				if conn, err = blocking(conn, &c.waits); err != nil {
					return nil, fmt.Errorf("blocking socket: %w", err)
				}
			}
			var h2 *wire.H2Counters
			if c.proto == H2C {
				h2 = &c.h2
			}
			return wire.WrapConn(conn, &c.io, h2, true), nil
		},
		DisableCompression:  true,
		MaxIdleConnsPerHost: 1 << 16,
		MaxConnsPerHost:     opts.MaxConnsPerHost,
		TLSHandshakeTimeout: opts.Config.Effective().DialTimeout,
		Protocols:           protos,
		HTTP2:               http2Config(opts.Config.Effective().HTTP2),
	}
	// "N streams on one connection" must mean one connection: wait for a
	// free stream rather than open another connection. Beware: with this
	// set, requests beyond the server's SETTINGS_MAX_CONCURRENT_STREAMS
	// stall in net/http (Go 1.26 and 1.27: 300 at once against a limit of
	// 250 finish a handful in seconds), so load asks the server's limit
	// first and never sends more (loadresult.Result.Lowered says when).
	tr.HTTP2.StrictMaxConcurrentRequests = true
	if opts.Protocol == H2C || opts.Protocol == H2 {
		// Go 1.26 hands a new HTTP/2 connection to its first request
		// before it puts it in the pool, so a second request that starts
		// after a quick first one can miss it and dial again (fixed
		// upstream by golang/go@88b2ccb). One connection per host closes
		// that window: the second request waits for the pooled one.
		tr.MaxConnsPerHost = 1
	}
	switch opts.Protocol {
	case H1:
		protos.SetHTTP1(true)
	case H2C:
		protos.SetUnencryptedHTTP2(true)
	case H1TLS, H2:
		if opts.Protocol == H1TLS {
			protos.SetHTTP1(true)
			tlsConf.NextProtos = []string{"http/1.1"}
		} else {
			protos.SetHTTP2(true)
			tlsConf.NextProtos = []string{"h2"}
		}
		// Dial TLS ourselves so the I/O counters sit below TLS, as on the
		// server, and count the bytes that really cross the socket.
		tr.DialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			raw, err := tr.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			conf := tlsConf.Clone()
			if conf.ServerName == "" {
				if host, _, err := net.SplitHostPort(addr); err == nil {
					conf.ServerName = host
				}
			}
			tc := tls.Client(raw, conf)
			if err := handshakeTLS(ctx, tc, addr, opts.Config.Effective().DialTimeout); err != nil {
				raw.Close()
				return nil, err
			}
			return tc, nil
		}
	}
	c.closeFn = func() error { tr.CloseIdleConnections(); return nil }
	return tr
}

func (c *Client) newH3(opts ClientOptions, tlsConf *tls.Config) *http3.Transport {
	qconf := dial.QUICConfig(opts.Config)
	if opts.Config.QUIC.Trace {
		qconf.Tracer = c.quic.Tracer()
	}
	tr := &http3.Transport{
		TLSClientConfig:    tlsConf,
		QUICConfig:         qconf,
		DisableCompression: true,
		Dial: func(ctx context.Context, addr string, tlsCfg *tls.Config, cfg *quic.Config) (*quic.Conn, error) {
			conn, err := dialQUICTimed(ctx, opts.Network, addr, tlsCfg, cfg)
			if err != nil {
				return nil, err
			}
			c.quic.Track(conn)
			return conn, nil
		},
	}
	c.closeFn = tr.Close
	return tr
}

// Protocol returns the transport the client speaks.
func (c *Client) Protocol() Protocol { return c.proto }

// ReadSize returns the buffer size, in bytes, to drain response bodies with.
func (c *Client) ReadSize() int { return c.readSize }

// HTTP returns the underlying http.Client. Responses it returns are not
// checked for the negotiated protocol; use Do for that.
func (c *Client) HTTP() *http.Client { return c.hc }

// ProtocolError says a response arrived over another transport than the
// one asked for (for example h2 asked, HTTP/1.1 negotiated by ALPN).
type ProtocolError struct {
	Want, Got Protocol
}

func (e *ProtocolError) Error() string {
	return fmt.Sprintf("asked for %s but the server answered over %s", e.Want, e.Got)
}

// Do sends req and returns the response if it arrived over the client's
// transport; otherwise it closes the body and returns a *ProtocolError.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	if got := OfResponse(resp); got != c.proto {
		resp.Body.Close()
		return nil, &ProtocolError{Want: c.proto, Got: got}
	}
	return resp, nil
}

// Counters returns the client's connection counters.
func (c *Client) Counters() stats.ClientCounters {
	q := c.quic.Snapshot()
	return stats.ClientCounters{
		Connections: c.io.Connections() + q.Connections,
		IO:          c.io.Snapshot(),
		H2:          c.h2.Snapshot(),
		QUIC:        q,
		Waits:       c.waits.Snapshot(),
	}
}

// Close releases the client's idle connections (h1, h2) or closes all of
// its connections (h3).
func (c *Client) Close() error { return c.closeFn() }
