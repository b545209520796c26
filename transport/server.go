package transport

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
	"golang.org/x/net/netutil"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/internal/wire"
	"github.com/httpvs/httpvs/stats"
)

// ServerOptions says where a Server listens and how it is tuned.
type ServerOptions struct {
	// Handler serves every transport.
	Handler http.Handler
	// Listen is the TCP address for h1 and h2c ("127.0.0.1:8080"); empty
	// means no cleartext listener. Port 0 picks a free port.
	Listen string
	// TLSListen is the TCP address for h1-tls and h2 (by ALPN) and, unless
	// NoH3, the UDP address for h3 on the same port; empty means none.
	TLSListen string
	// NoH3 turns the QUIC listener off.
	NoH3 bool
	// Cert is the TLS certificate; if it holds none, a self-signed one is
	// made, valid for loopback and for TLSListen's host if it names one.
	Cert tls.Certificate
	// Config tunes HTTP/2, QUIC and the body write size.
	Config config.Server
	// ReadHeaderTimeout bounds reading a request's headers; zero means
	// 10 s.
	ReadHeaderTimeout time.Duration
	// IdleTimeout closes idle keep-alive connections; zero means
	// 120 s.
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds request headers, in bytes; zero means
	// 1 MiB.
	MaxHeaderBytes int
	// MinDataRate is the slowest a peer may send request bodies and take
	// responses before its connection is closed; the zero value is
	// Kestrel's defaults (240 bytes/s after
	// 5 s).
	MinDataRate MinDataRate
	// MaxConns bounds the connections each TCP listener (cleartext, TLS)
	// holds open at once; further ones wait in the kernel's accept queue
	// until one closes. Zero means no bound. QUIC connections are not
	// bounded by it.
	MaxConns int
	// ErrorLog receives the servers' connection errors; nil discards them,
	// counting them for Server.ConnErrors.
	ErrorLog *log.Logger
}

// Server serves one handler over all five transports: h1 and h2c on one TCP
// port, h1-tls and h2 on a TLS port, h3 on UDP at the TLS port's number.
type Server struct {
	cert      tls.Certificate
	tcpLn     net.Listener
	tlsLn     net.Listener
	udp       net.PacketConn
	plain     *http.Server
	secure    *http.Server
	h3        *http3.Server
	tcpIO     wire.IOCounter
	tlsIO     wire.IOCounter
	h2c       wire.H2Counters // frames on the cleartext listener's h2c connections
	quic      wire.QUICCounter
	churn     churnConns // each TCP connection's h2Churn, for ConnState
	conns     [numProtocols]atomic.Int64
	errOnce   sync.Once
	errc      chan error
	closeOnce sync.Once

	connErrors lineCounter // lines logged when ServerOptions.ErrorLog is nil
}

// NewServer binds the listeners of opts and starts serving. It returns once
// every listener is bound; serving errors arrive on Err.
func NewServer(opts ServerOptions) (*Server, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if opts.Handler == nil {
		return nil, errors.New("server needs a handler")
	}
	if opts.Listen == "" && opts.TLSListen == "" {
		return nil, errors.New("server needs a cleartext or a TLS listen address")
	}
	s := &Server{cert: opts.Cert, errc: make(chan error, 1)}
	if len(s.cert.Certificate) == 0 {
		// Valid for the TLS listener's host too when it is named (not a
		// wildcard): a server on another address than loopback, such as
		// an emulated link's, verifies.
		var hosts []string
		if host, _, err := net.SplitHostPort(opts.TLSListen); err == nil && host != "" {
			if ip := net.ParseIP(host); ip == nil || !ip.IsUnspecified() {
				hosts = append(hosts, host)
			}
		}
		cert, err := SelfSigned(hosts...)
		if err != nil {
			return nil, err
		}
		s.cert = cert
	}
	handler := s.countConnections(floorRequests(opts.Handler, opts.MinDataRate))
	logger := s.errorLog(opts)
	newHTTPServer := func(protos *http.Protocols) *http.Server {
		return &http.Server{
			Handler:           handler,
			Protocols:         protos,
			HTTP2:             http2Config(opts.Config.HTTP2),
			ReadHeaderTimeout: orDuration(opts.ReadHeaderTimeout, defaults.ReadHeaderTimeout),
			IdleTimeout:       orDuration(opts.IdleTimeout, defaults.IdleTimeout),
			MaxHeaderBytes:    orInt(opts.MaxHeaderBytes, defaults.MaxHeaderBytes),
			ErrorLog:          logger,
			ConnState:         s.churn.connState,
			ConnContext: func(ctx context.Context, c net.Conn) context.Context {
				return context.WithValue(ctx, connMarkKey{}, markTCP(c, orDuration(opts.ReadHeaderTimeout, defaults.ReadHeaderTimeout), &s.churn))
			},
		}
	}
	if opts.Listen != "" {
		ln, err := net.Listen("tcp", opts.Listen)
		if err != nil {
			return nil, fmt.Errorf("listen h1/h2c on %s: %w", opts.Listen, err)
		}
		s.tcpLn = withFloor(wire.Listener{Listener: limit(ln, opts.MaxConns), IO: &s.tcpIO, H2: &s.h2c}, opts.MinDataRate)
		protos := new(http.Protocols)
		protos.SetHTTP1(true)
		protos.SetUnencryptedHTTP2(true)
		s.plain = newHTTPServer(protos)
	}
	if opts.TLSListen != "" {
		if err := s.listenTLS(opts, handler, newHTTPServer); err != nil {
			s.closeListeners()
			return nil, err
		}
	}
	if s.plain != nil {
		go s.serve(func() error { return s.plain.Serve(s.tcpLn) })
	}
	if s.secure != nil {
		go s.serve(func() error { return s.secure.ServeTLS(s.tlsLn, "", "") })
	}
	if s.h3 != nil {
		go s.serve(func() error { return s.h3.Serve(s.udp) })
	}
	return s, nil
}

func (s *Server) listenTLS(opts ServerOptions, handler http.Handler, newHTTPServer func(*http.Protocols) *http.Server) error {
	ln, udp, err := listenTCPAndUDP(opts.TLSListen, !opts.NoH3)
	if err != nil {
		return err
	}
	s.tlsLn = withFloor(wire.Listener{Listener: limit(ln, opts.MaxConns), IO: &s.tlsIO}, opts.MinDataRate)
	protos := new(http.Protocols)
	protos.SetHTTP1(true)
	protos.SetHTTP2(true)
	s.secure = newHTTPServer(protos)
	s.secure.TLSConfig = &tls.Config{Certificates: []tls.Certificate{s.cert}, MinVersion: tls.VersionTLS12}
	if udp == nil {
		return nil
	}
	s.udp = udp
	qconf := dial.QUICConfigOf(opts.Config.QUIC)
	if opts.Config.QUIC.Trace {
		qconf.Tracer = s.quic.Tracer()
	}
	// 0-RTT as http3.Server allows it with no QUIC config: a client that
	// resumes may send requests in its first flight (it decides which,
	// http3.MethodGet0RTT). Early data can be replayed, so a request in it
	// with an unsafe method is answered 425 Too Early (refuseEarly), and
	// handlers ask EarlyData before anything a replay must not do.
	qconf.Allow0RTT = true
	s.h3 = &http3.Server{
		Handler:        refuseEarly(handler),
		TLSConfig:      http3.ConfigureTLSConfig(&tls.Config{Certificates: []tls.Certificate{s.cert}, MinVersion: tls.VersionTLS13}),
		QUICConfig:     qconf,
		IdleTimeout:    orDuration(opts.IdleTimeout, defaults.IdleTimeout),
		MaxHeaderBytes: orInt(opts.MaxHeaderBytes, defaults.MaxHeaderBytes),
		ConnContext: func(ctx context.Context, c *quic.Conn) context.Context {
			s.quic.Track(c)
			return context.WithValue(ctx, connMarkKey{}, markQUIC(c, opts.MinDataRate))
		},
	}
	return nil
}

// limit bounds ln to n open connections (netutil.LimitListener); n <= 0
// leaves it unbounded.
func limit(ln net.Listener, n int) net.Listener {
	if n <= 0 {
		return ln
	}
	return netutil.LimitListener(ln, n)
}

// listenTCPAndUDP binds TCP at addr and, if withUDP, UDP at the same port.
// With port 0 it retries a few times when the kernel's free TCP port is
// taken on UDP.
func listenTCPAndUDP(addr string, withUDP bool) (net.Listener, net.PacketConn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, nil, fmt.Errorf("TLS listen address %q: %w", addr, err)
	}
	for attempt := 0; ; attempt++ {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return nil, nil, fmt.Errorf("listen h1-tls/h2 on %s: %w", addr, err)
		}
		if !withUDP {
			return ln, nil, nil
		}
		bound := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
		udp, err := net.ListenPacket("udp", net.JoinHostPort(host, bound))
		if err == nil {
			return ln, udp, nil
		}
		ln.Close()
		if port != "0" || attempt >= 10 {
			return nil, nil, fmt.Errorf("listen h3 on udp %s: %w", net.JoinHostPort(host, bound), err)
		}
	}
}

// countConnections counts each connection once, for the transport of its
// first request.
func (s *Server) countConnections(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if m, ok := r.Context().Value(connMarkKey{}).(*connMark); ok && !m.counted.Load() && m.counted.CompareAndSwap(false, true) {
			if m.deadline != nil {
				m.deadline.Stop()
			}
			s.conns[OfRequest(r)].Add(1)
		}
		h.ServeHTTP(w, r)
	})
}

func (s *Server) serve(fn func() error) {
	if err := fn(); err != nil && !errors.Is(err, http.ErrServerClosed) && !errors.Is(err, net.ErrClosed) && !errors.Is(err, quic.ErrServerClosed) {
		s.errOnce.Do(func() { s.errc <- err })
	}
}

// Err delivers the first error that stopped a listener other than Close.
func (s *Server) Err() <-chan error { return s.errc }

// Cert returns the certificate the TLS transports present.
func (s *Server) Cert() tls.Certificate { return s.cert }

// Has reports whether the server listens for transport p.
func (s *Server) Has(p Protocol) bool {
	switch p {
	case H1, H2C:
		return s.tcpLn != nil
	case H1TLS, H2:
		return s.tlsLn != nil
	case H3:
		return s.udp != nil
	}
	return false
}

// Addr returns the address transport p is served on, or "" if it is not.
func (s *Server) Addr(p Protocol) string {
	if !s.Has(p) {
		return ""
	}
	switch p {
	case H1, H2C:
		return s.tcpLn.Addr().String()
	case H3:
		return s.udp.LocalAddr().String()
	default:
		return s.tlsLn.Addr().String()
	}
}

// URL returns the base URL for transport p ("http://127.0.0.1:8080"), or
// "" if it is not served.
func (s *Server) URL(p Protocol) string {
	addr := s.Addr(p)
	if addr == "" {
		return ""
	}
	return p.Scheme() + "://" + addr
}

// Counters returns the connection counters of the server's listeners.
func (s *Server) Counters() stats.ListenerCounters {
	conns := make(map[string]int64, numProtocols)
	for _, p := range All {
		conns[p.String()] = s.conns[p].Load()
	}
	return stats.ListenerCounters{
		TCP: s.tcpIO.Snapshot(), TLS: s.tlsIO.Snapshot(), QUIC: s.quic.Snapshot(),
		H2C: s.h2c.Snapshot(), Connections: conns, ConnErrors: s.connErrorCount(),
	}
}

// Close stops every listener and closes every connection at once.
func (s *Server) Close() error {
	var errs []error
	s.closeOnce.Do(func() {
		if s.plain != nil {
			errs = append(errs, s.plain.Close())
		}
		if s.secure != nil {
			errs = append(errs, s.secure.Close())
		}
		if s.h3 != nil {
			errs = append(errs, s.h3.Close())
		}
		s.closeListeners()
	})
	return errors.Join(errs...)
}

func (s *Server) closeListeners() {
	for _, c := range []io.Closer{s.tcpLn, s.tlsLn, s.udp} {
		if c != nil {
			c.Close()
		}
	}
}

func orDuration(v, def time.Duration) time.Duration {
	if v <= 0 {
		return def
	}
	return v
}

func orInt(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}
