package server

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"syscall"

	"github.com/httpvs/httpvs/internal/fielderr"
	"github.com/httpvs/httpvs/transport"
)

// Config composes a whole payload server: the handlers (Options), the
// transport listeners (Transport) and grpc-go's own listener for seed
// 003's native binding (GRPCListen).
type Config struct {
	Options
	// Transport says where and how to listen. Its Handler, if set,
	// replaces the payload's handlers (a test's misbehaving server, say);
	// the counters and the native gRPC listener stay.
	Transport transport.ServerOptions
	// GRPCListen is the TCP address of the native gRPC listener, e.g.
	// 127.0.0.1:0; empty for none (gRPC is also served through net/http
	// on the h2c and h2 ports).
	GRPCListen string
	// GRPCAnyPortIfTaken, when GRPCListen's port is in use (EADDRINUSE:
	// another server holds it), listens on a free port of the same host
	// instead of failing; Running.GRPCAddr says which, and
	// Running.GRPCMoved that it moved.
	GRPCAnyPortIfTaken bool
	// SampleGoroutines turns on the goroutine-peak sampler behind /stats
	// (Server.SampleGoroutines).
	SampleGoroutines bool
}

// Running is a payload server listening on every address its Config
// named. Close it when done.
type Running struct {
	Server    *Server           // the handlers and their counters
	Transport *transport.Server // the h1, h2c, h1-tls, h2 and h3 listeners
	// GRPCAddr is where the native gRPC listener listens; "" if none.
	GRPCAddr string
	// GRPCMoved says GRPCListen was taken and, as
	// Config.GRPCAnyPortIfTaken asked, the native gRPC listener listens
	// on another port of its host.
	GRPCMoved bool

	errs      chan error
	done      chan struct{} // closed by Close
	stopPeak  func()
	closeOnce sync.Once
}

// Loopback is the transport options of a server on loopback ephemeral
// ports for every transport, as tests and in-process runs use.
func Loopback() transport.ServerOptions {
	return transport.ServerOptions{Listen: "127.0.0.1:0", TLSListen: "127.0.0.1:0"}
}

// Start builds the payload server of cfg and starts serving; a cfg that
// Validate refuses is its *config.FieldError.
func Start(cfg Config) (*Running, error) {
	// Validate less Transport, which transport.NewServer validates.
	if err := cfg.validateOwn(); err != nil {
		return nil, err
	}
	opts := cfg.Options
	for _, addr := range []string{cfg.Transport.Listen, cfg.Transport.TLSListen} {
		opts.Exposed = opts.Exposed || beyondLoopback(addr)
	}
	payload := New(opts)
	if err := payload.pageError(); err != nil {
		return nil, err
	}
	topts := cfg.Transport
	if topts.Handler == nil {
		topts.Handler = payload.Handler()
	}
	ts, err := transport.NewServer(topts)
	if err != nil {
		payload.grpc.Stop()
		return nil, fielderr.Within("Transport", err)
	}
	payload.attach(ts)
	r := &Running{Server: payload, Transport: ts, errs: make(chan error, 2), done: make(chan struct{}), stopPeak: func() {}}
	if cfg.GRPCListen != "" {
		ln, moved, err := listenGRPC(cfg.GRPCListen, cfg.GRPCAnyPortIfTaken)
		if err != nil {
			payload.grpc.Stop()
			ts.Close()
			return nil, err
		}
		r.GRPCAddr, r.GRPCMoved = ln.Addr().String(), moved
		go func() {
			if err := payload.grpc.Serve(ln); err != nil {
				r.errs <- fmt.Errorf("gRPC: %w", err)
			}
		}()
	}
	go func() {
		select {
		case err := <-ts.Err():
			r.errs <- err
		case <-r.done:
		}
	}()
	if cfg.SampleGoroutines {
		r.stopPeak = payload.sampleGoroutines()
	}
	return r, nil
}

// BeyondLoopback returns the addresses r listens on (h1 and h2c, the TLS
// port, native gRPC, in that order) that are not loopback ones: anyone
// who can reach them can download and upload through the server.
func (r *Running) BeyondLoopback() []string {
	var addrs []string
	for _, addr := range []string{r.Transport.Addr(transport.H1), r.Transport.Addr(transport.H2), r.GRPCAddr} {
		if beyondLoopback(addr) {
			addrs = append(addrs, addr)
		}
	}
	return addrs
}

// Err delivers the first error of any listener that stopped serving.
func (r *Running) Err() <-chan error { return r.errs }

// Close stops every listener.
func (r *Running) Close() error {
	var err error
	r.closeOnce.Do(func() {
		close(r.done)
		r.stopPeak()
		r.Server.grpc.Stop()
		err = r.Transport.Close()
	})
	return err
}

// listenGRPC listens on addr, the native gRPC address; if it is taken and
// anyPort, on a free port of addr's host, and moved says so.
func listenGRPC(addr string, anyPort bool) (ln net.Listener, moved bool, err error) {
	ln, err = net.Listen("tcp", addr)
	if err != nil && anyPort && errors.Is(err, syscall.EADDRINUSE) {
		host, _, _ := net.SplitHostPort(addr) // Validate saw host:port
		addr, moved = net.JoinHostPort(host, "0"), true
		ln, err = net.Listen("tcp", addr)
	}
	if err != nil {
		return nil, false, fmt.Errorf("listen gRPC on %s: %w", addr, err)
	}
	return ln, moved, nil
}
