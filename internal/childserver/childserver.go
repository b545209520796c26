// Package childserver is the payload server as a process of its own: the
// one `httpvs serve` runs, and the one an experiment starts as its child
// so that the server's CPU is measured apart from the client's.
//
// The child is the calling program re-executed, in the reexec style of
// docker and containerd: the parent starts it with Env set, writes a Spec
// as one JSON line to its stdin and holds stdin open as its leash; the
// child (Main, first thing in main) starts the server, writes one JSON
// line, Ready, to stdout, and serves until stdin closes. A child that
// cannot start says why in Ready.Error; one that fails later exits with
// status 1, its reason on stderr, which the parent keeps.
package childserver

import (
	"crypto/tls"
	"fmt"
	"log"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/fielderr"
	"github.com/httpvs/httpvs/internal/pin"
	"github.com/httpvs/httpvs/internal/procstat"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
	"github.com/httpvs/httpvs/webpage"
)

// Env, set in a process's environment, says it was started as a child
// server: its Main serves, and an experiment it would run instead is
// refused (it would start itself again, and again).
const Env = "HTTPVS_CHILD"

// ReadyTimeout bounds a child server's start-up.
const ReadyTimeout = 15 * time.Second

// DefaultMaxConns bounds each TCP listener's open connections when
// Spec.MaxConns is zero: far above what the scenarios use (100), below
// common descriptor limits, so that a flood waits in the accept queue
// instead of exhausting the process's descriptors.
const DefaultMaxConns = 10000

// Spec is a payload server: where it listens and how, what it serves.
// Zero fields are the server's and the transport's defaults.
type Spec struct {
	Listen     string `json:"listen,omitempty"`      // h1 and h2c; "" for none
	TLSListen  string `json:"tls_listen,omitempty"`  // h1-tls, h2 and, unless NoH3, h3; "" for none
	GRPCListen string `json:"grpc_listen,omitempty"` // native gRPC; "" for none
	NoH3       bool   `json:"no_h3,omitempty"`
	// GRPCAnyPortIfTaken: server.Config's.
	GRPCAnyPortIfTaken bool `json:"grpc_any_port,omitempty"`
	// Server is the knobs: zero fields Go's and quic-go's, with
	// defaults.WriteSize writes.
	Server config.Server `json:"server"`
	// MaxSize, MaxEcho and MaxBuffered: server.Options'.
	MaxSize     units.Bytes `json:"max_size,omitempty"`
	MaxEcho     units.Bytes `json:"max_echo,omitempty"`
	MaxBuffered units.Bytes `json:"max_buffered,omitempty"`
	// ReadHeaderTimeout, IdleTimeout, MaxHeaderBytes and MinDataRate:
	// transport.ServerOptions'.
	ReadHeaderTimeout time.Duration         `json:"read_header_timeout,omitempty"`
	IdleTimeout       time.Duration         `json:"idle_timeout,omitempty"`
	MaxHeaderBytes    int                   `json:"max_header_bytes,omitempty"`
	MinDataRate       transport.MinDataRate `json:"min_data_rate"`
	// MaxConns bounds each TCP listener's connections; zero:
	// DefaultMaxConns, negative: no bound.
	MaxConns int `json:"max_conns,omitempty"`
	// Page is served at /page/ instead of page-load's; nil: page-load's.
	Page      *webpage.Page `json:"page,omitempty"`
	Profiling bool          `json:"profiling,omitempty"` // serve /debug/profile/
	Token     string        `json:"token,omitempty"`     // what /stats/reset and /debug/profile/ require
	// CPUs, when set, are the only CPUs the server runs on
	// (sched_setaffinity, GOMAXPROCS to match).
	CPUs []int `json:"cpus,omitempty"`
	// Cert is the TLS certificate (none: a self-signed one); ErrorLog
	// hears of connection errors (nil: counted only). Not sent to a child.
	Cert     tls.Certificate `json:"-"`
	ErrorLog *log.Logger     `json:"-"`
}

// Config is the server.Config s describes.
func (s Spec) Config() server.Config {
	maxConns := s.MaxConns
	switch {
	case maxConns == 0:
		maxConns = DefaultMaxConns
	case maxConns < 0:
		maxConns = 0 // transport's none
	}
	return server.Config{
		Options: server.Options{MaxSize: s.MaxSize, MaxEcho: s.MaxEcho, MaxBuffered: s.MaxBuffered,
			WriteSize: int(s.Server.Effective().WriteSize), Page: s.Page, Profiling: s.Profiling, Token: s.Token},
		Transport: transport.ServerOptions{Listen: s.Listen, TLSListen: s.TLSListen, NoH3: s.NoH3, Cert: s.Cert,
			Config: s.Server, ReadHeaderTimeout: s.ReadHeaderTimeout, IdleTimeout: s.IdleTimeout,
			MaxHeaderBytes: s.MaxHeaderBytes, MaxConns: maxConns, MinDataRate: s.MinDataRate, ErrorLog: s.ErrorLog},
		GRPCListen:         s.GRPCListen,
		GRPCAnyPortIfTaken: s.GRPCAnyPortIfTaken,
		SampleGoroutines:   true,
	}
}

// Validate reports the first field of s out of range, as server.Config's
// Validate names it ("Transport.Config.HTTP2.MaxReadFrameSize" is then
// "Server.HTTP2.MaxReadFrameSize"), or a page that cannot be served.
func (s Spec) Validate() error {
	if err := fielderr.Within("Server", s.Server.Validate()); err != nil {
		return err
	}
	if s.Page != nil {
		if err := s.Page.Validate(); err != nil {
			return fmt.Errorf("page: %w", err)
		}
	}
	return s.Config().Validate()
}

// Start starts the server s describes, on its CPUs when it names them;
// limit, when not "", says the open-file limit stays below what the
// server may need.
func (s Spec) Start() (srv *server.Running, limit string, err error) {
	if len(s.CPUs) > 0 {
		if _, err := pin.Self(s.CPUs); err != nil {
			return nil, "", fmt.Errorf("run on CPUs %s: %w", pin.Format(s.CPUs), err)
		}
	}
	limit = procstat.RaiseFileLimit()
	srv, err = server.Start(s.Config())
	return srv, limit, err
}
