// Package server is httpvs's payload server: the handlers every transport
// serves (sized downloads, an upload sink, a tiny response, an echo, and
// the /stats counters) and the counters behind them. It knows nothing of
// protocols beyond asking the transport package which one a request used.
package server

import (
	"cmp"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"

	"github.com/httpvs/httpvs/internal/bookstore"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/pagesite"
	"github.com/httpvs/httpvs/internal/procstat"
	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
	"github.com/httpvs/httpvs/webpage"
)

// Options configures the payload server. The zero value is usable.
type Options struct {
	// MaxSize caps /bytes/{size} and /sink bodies; zero means 1 TB.
	MaxSize units.Bytes
	// WriteSize is the chunk, in bytes, response bodies are written in and
	// request bodies read with; zero means 256 KiB.
	WriteSize int
	// MaxEcho caps each /echo body; zero means 1 MiB. A body
	// declared longer is refused (413) before a byte of it is read.
	MaxEcho units.Bytes
	// MaxBuffered caps the bytes of request bodies held in memory at once
	// across all requests (the /echo bodies); zero means
	// 64 MiB. A request that would pass it is answered 503.
	MaxBuffered units.Bytes
	// Token, when set, is required (Authorization: Bearer TOKEN) by the
	// routes that change the server's state or reveal its internals:
	// POST /stats/reset and /debug/profile/. Reads of /stats stay open.
	Token string
	// Exposed says the server may be reached from beyond loopback: those
	// routes are then refused (403) unless Token is set and sent. Start
	// sets it when any listen address is beyond loopback.
	Exposed bool
	// Page is the page GET /page/ serves for a browser (webpage.Page); nil
	// means page-load's page, webpage.Median.
	Page *webpage.Page
	// Profiling serves the process's CPU and heap profiles under
	// /debug/profile/ (for httpvs run --profile). Off by default: profiles
	// reveal the program's internals.
	Profiling bool
}

// ioSource is where the server's connection counters come from: the
// transport.Server that serves this handler.
type ioSource interface {
	Counters() stats.ListenerCounters
}

// Server holds the payload handlers' configuration and counters.
type Server struct {
	maxSize   units.Bytes
	maxEcho   units.Bytes
	buffered  budget // request bodies held in memory (/echo)
	writeSize int
	chunk     []byte // read-only, shared by every download
	bufs      sync.Pool
	start     time.Time
	counters  [protoname.Count]protoCounters
	source    atomic.Pointer[ioSource]
	peak      atomic.Pointer[procstat.GoroutinePeak] // nil unless SampleGoroutines
	inflight  atomic.Int64                           // body handlers (/bytes, /sink) running now
	grpc      *grpc.Server                           // the gRPC ServeHTTP post's Bookstore: ServeHTTP here, Serve on a port of its own
	profiler  *profiler                              // nil unless Options.Profiling
	token     string                                 // Options.Token
	exposed   bool                                   // Options.Exposed
	native    protoCounters                          // gRPC calls over grpc-go's own transport (Config.GRPCListen)
	page      *pageSite                              // GET /page/

	mu       sync.Mutex
	baseline stats.ServerStats // subtracted from raw counters; set by Reset
	resets   int64             // the reset generation: Resets so far
}

// protoCounters are the live, atomic form of stats.ProtocolCounters.
type protoCounters struct {
	requests, bodySent, bodyReceived, bodyWrites, bodyReads, transferNanos, aborted atomic.Int64
}

// New returns a payload server with opts.
func New(opts Options) *Server {
	s := &Server{
		maxSize:   opts.MaxSize,
		maxEcho:   cmp.Or(opts.MaxEcho, defaults.MaxEcho),
		writeSize: opts.WriteSize,
		token:     opts.Token,
		exposed:   opts.Exposed,
		start:     time.Now(),
		page:      newPageSite(opts.Page),
	}
	s.buffered.limit = int64(cmp.Or(opts.MaxBuffered, defaults.MaxBuffered))
	if s.maxSize <= 0 {
		s.maxSize = defaults.MaxSize
	}
	if s.writeSize <= 0 {
		s.writeSize = int(defaults.WriteSize)
	}
	s.chunk = make([]byte, s.writeSize)
	for i := range s.chunk {
		s.chunk[i] = byte('a' + i%26)
	}
	s.bufs.New = func() any { b := make([]byte, s.writeSize); return &b }
	s.grpc = bookstore.NewGRPCServer(grpc.UnaryInterceptor(s.countNative), grpc.StatsHandler(payloadCounter{s}))
	if opts.Profiling {
		s.profiler = &profiler{}
	}
	return s
}

// NativeGRPC is the counters' name for gRPC calls served by grpc-go's own
// transport (Config.GRPCListen).
const nativeGRPC = "grpc-native"

// SampleGoroutines samples the process's goroutine count until stop is
// called, so that each /stats read reports the peak since the previous
// one (ProcessStats.GoroutinesPeak). httpvs serve turns it on; it costs a
// wakeup every procstat.PeakInterval.
func (s *Server) sampleGoroutines() (stop func()) {
	p := procstat.StartGoroutinePeak()
	s.peak.Store(p)
	return func() { s.peak.Store(nil); p.Stop() }
}

// Attach tells the server where its connection counters come from. Call it
// once the transport.Server serving Handler exists.
func (s *Server) attach(src ioSource) { s.source.Store(&src) }

// Handler returns the routes:
//
//	GET  /bytes/{size}, GET /{size}   exactly size bytes (10000000000, 10g, 64Ki)
//	PUT  /sink, POST /sink            reads the body; JSON {"bytes","seconds"}
//	GET  /small                       a 2-byte response
//	GET  /page/, /page/{path}         a page for a browser: its document, a directory page's files
//	POST /echo, PUT /echo, GET /echo  the request body back, with header counts
//	GET  /stats                       the counters as JSON (stats.ServerStats)
//	POST /stats/reset                 the counters as JSON, then zeroes them
//	GET  /v1/shelves/{s}/books/{b}    the gRPC ServeHTTP post's GetBook as JSON (bookstore.ServeJSON)
//	gRPC (HTTP/2, application/grpc)   the Bookstore service via grpc.Server.ServeHTTP
func (s *Server) Handler() http.Handler {
	routes := s.routes()
	// A request no route takes (404, 405) is answered by routes, after
	// its body is read: net/http's HTTP/2 server checks a request's
	// content-length against its DATA frames only as the body is read,
	// so a refusal written before the frames arrive would hide a malformed
	// request (RFC 9113 8.1.1; h2spec http2/8.1.2.6 sends POST /small).
	mux := s.routes()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Body != http.NoBody {
			_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, maxSmallBody))
		}
		routes.ServeHTTP(w, r)
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if bookstore.IsGRPC(r) {
			s.serveGRPC(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// routes returns a mux with the routes Handler lists and no fallback.
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", handleIndex)
	mux.HandleFunc("GET /bytes/{size}", s.handleBytes)
	mux.HandleFunc("GET /{size}", s.handleBytes)
	mux.HandleFunc("PUT /sink", s.handleSink)
	mux.HandleFunc("POST /sink", s.handleSink)
	mux.HandleFunc("GET /small", s.handleSmall)
	mux.HandleFunc("GET "+pagesite.DocumentPath+"{path...}", s.handlePage)
	mux.HandleFunc("GET /echo", s.handleEcho)
	mux.HandleFunc("POST /echo", s.handleEcho)
	mux.HandleFunc("PUT /echo", s.handleEcho)
	mux.HandleFunc("GET /stats", s.handleStats)
	mux.HandleFunc("POST /stats/reset", s.guard(s.handleReset))
	if s.profiler != nil {
		s.profiler.routes(mux, s.guard)
	}
	mux.HandleFunc(bookstore.JSONPattern, s.serveJSON)
	return mux
}

// load returns c's counts, with conns connections.
func (c *protoCounters) load(conns int64) stats.ProtocolCounters {
	return stats.ProtocolCounters{
		Requests:          c.requests.Load(),
		Connections:       conns,
		BodyBytesSent:     c.bodySent.Load(),
		BodyBytesReceived: c.bodyReceived.Load(),
		BodyWrites:        c.bodyWrites.Load(),
		BodyReads:         c.bodyReads.Load(),
		TransferSeconds:   time.Duration(c.transferNanos.Load()).Seconds(),
		Aborted:           c.aborted.Load(),
	}
}

func (s *Server) counter(r *http.Request) *protoCounters {
	return &s.counters[transport.OfRequest(r)]
}

// raw returns the counters since start.
func (s *Server) raw() stats.ServerStats {
	st := stats.ServerStats{
		Seconds:   time.Since(s.start).Seconds(),
		Protocols: make(map[string]stats.ProtocolCounters, protoname.Count),
		Process:   procstat.Sample(),
	}
	if p := s.peak.Load(); p != nil {
		st.Process.GoroutinesPeak = p.Take()
	}
	var conns map[string]int64
	if src := s.source.Load(); src != nil {
		n := (*src).Counters()
		st.TCP, st.TLS, st.QUIC, st.H2C = n.TCP, n.TLS, n.QUIC, n.H2C
		conns = n.Connections
	}
	for _, p := range transport.All {
		st.Protocols[p.String()] = s.counters[p].load(conns[p.String()])
	}
	st.Protocols[nativeGRPC] = s.native.load(0)
	return st
}

// Stats returns the counters since start or the last Reset, with their
// reset generation.
func (s *Server) Stats() stats.ServerStats {
	s.mu.Lock()
	base, gen := s.baseline, s.resets
	s.mu.Unlock()
	cur := s.raw()
	if base.Protocols != nil {
		cur = cur.Sub(base)
	}
	cur.Resets = gen
	return cur
}

// Reset zeroes the counters and returns what they were, with the
// generation they belonged to; the generation goes up by one. Gauges
// (heap in use, goroutines) are never zeroed.
func (s *Server) Reset() stats.ServerStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.raw()
	prev := cur
	if s.baseline.Protocols != nil {
		prev = cur.Sub(s.baseline)
	}
	prev.Resets = s.resets
	s.baseline = cur
	s.resets++
	return prev
}
