// Package httpvstest starts HTTP servers for tests and benchmarks over any
// of httpvs's five transports (h1, h2c, h1-tls, h2, h3), in the spirit of
// net/http/httptest: NewServer(handler, transport) listens on loopback,
// URL is its base URL, Client returns an *http.Client that already trusts
// the server's certificate and speaks only that transport, and Close
// stops both.
//
//	srv := httpvstest.NewServer(handler, transport.H3)
//	defer srv.Close()
//	resp, err := srv.Client().Get(srv.URL + "/path")
package httpvstest

import (
	"fmt"
	"net/http"
	"sync"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/transport"
)

// Options describe a test server.
type Options struct {
	// Handler serves every request.
	Handler http.Handler
	// Protocol is the transport the server is reached over.
	Protocol transport.Protocol
	// Config tunes the server's and the client's ends; the zero value is
	// Go's and quic-go's defaults (see config.Config).
	Config config.Config
}

// Server is a running test server and its client.
type Server struct {
	// URL is the base URL, e.g. http://127.0.0.1:41234 or
	// https://127.0.0.1:41235 (h3: UDP on that port), without a slash.
	URL string
	// Protocol is the transport the server is reached over.
	Protocol transport.Protocol
	// Server is the underlying transport server (counters, certificate).
	Server *transport.Server

	opts   Options
	mu     sync.Mutex
	client *transport.Client
}

// Start starts a server on loopback ephemeral ports for opts.Protocol:
// the cleartext listener for h1 and h2c, the TLS listener for h1-tls and
// h2, and the UDP one as well for h3. TLS uses a fresh self-signed
// certificate for 127.0.0.1 and localhost.
func Start(opts Options) (*Server, error) {
	p := opts.Protocol
	so := transport.ServerOptions{Handler: opts.Handler, Config: opts.Config.Server, NoH3: p != transport.H3}
	if p.TLS() {
		so.TLSListen = "127.0.0.1:0"
	} else {
		so.Listen = "127.0.0.1:0"
	}
	ts, err := transport.NewServer(so)
	if err != nil {
		return nil, fmt.Errorf("httpvstest: start %s server: %w", p, err)
	}
	return &Server{URL: ts.URL(p), Protocol: p, Server: ts, opts: opts}, nil
}

// NewServer starts a server for h over p, as Start does; like
// httptest.NewServer it panics if it cannot listen, which in a test means
// the machine is out of ports or file descriptors.
func NewServer(h http.Handler, p transport.Protocol) *Server {
	s, err := Start(Options{Handler: h, Protocol: p})
	if err != nil {
		panic(err)
	}
	return s
}

// Client returns the server's client: it trusts the server's certificate,
// speaks only s.Protocol (a response over another transport is an error)
// and is closed by Close. Every call returns the same client.
func (s *Server) Client() *http.Client {
	c, err := s.TransportClient()
	if err != nil {
		// NewClient fails only on invalid tuning, which Start has accepted.
		panic(err)
	}
	return c.HTTP()
}

// TransportClient is Client with httpvs's counters (connections, I/O
// calls, QUIC packets) and its Do, which checks the transport.
func (s *Server) TransportClient() (*transport.Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client == nil {
		c, err := transport.NewClient(transport.ClientOptions{
			Protocol: s.Protocol,
			Config:   s.opts.Config.Client,
			RootCAs:  transport.CertPool(s.Server.Cert()),
		})
		if err != nil {
			return nil, fmt.Errorf("httpvstest: %s client: %w", s.Protocol, err)
		}
		s.client = c
	}
	return s.client, nil
}

// Close closes the client's connections and stops the server.
func (s *Server) Close() {
	s.mu.Lock()
	if s.client != nil {
		s.client.Close()
		s.client = nil
	}
	s.mu.Unlock()
	s.Server.Close()
}
