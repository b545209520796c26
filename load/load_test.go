package load

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/testenv"
	"github.com/httpvs/httpvs/load/loadresult"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

func startServer(t testing.TB, h http.Handler) (*transport.Server, *server.Server) {
	t.Helper()
	opts := server.Loopback()
	opts.Handler = h
	srv, err := server.Start(server.Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv.Transport, srv.Server
}

func mustRun(t *testing.T, cfg Config) loadresult.Result {
	t.Helper()
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

func TestExactRequestCountsEveryTransport(t *testing.T) {
	t.Parallel() // see TestMain
	ts, payload := startServer(t, nil)
	for _, engine := range []Engine{Std, Fast} {
		for _, p := range transport.All {
			for _, path := range []string{"/small", "/echo", "/bytes/1M"} {
				t.Run(engine.String()+"/"+p.String()+path, func(t *testing.T) {
					before := payload.Stats().Protocols[p.String()]
					cfg, wantIn := exactConfig(ts, engine, p, path)
					res := mustRun(t, cfg)
					checkExact(t, cfg, res, wantIn)
					// The server saw the measured requests plus the warmup's.
					after := payload.Stats().Protocols[p.String()]
					if got := after.Requests - before.Requests; got < cfg.Requests {
						t.Fatalf("server saw %d requests, want at least %d", got, cfg.Requests)
					}
				})
			}
		}
	}
}

// exactConfig is a counted run of path over p, and the response body
// bytes it must receive.
func exactConfig(ts *transport.Server, engine Engine, p transport.Protocol, path string) (Config, int64) {
	cfg := Config{
		URL:      ts.URL(p) + path,
		Client:   transport.ClientOptions{Protocol: p, RootCAs: transport.CertPool(ts.Cert())},
		Conns:    2,
		Streams:  3,
		Requests: 101,
		Warmup:   50 * time.Millisecond,
		Headers:  HeaderSpec{Count: 10, Len: 20},
		Engine:   engine,
	}
	if p.Version() == 1 {
		cfg.Streams = 1
	}
	switch path {
	case "/bytes/1M": // many DATA frames and socket buffers full, yet cheap under -race
		cfg.Requests = 11
		return cfg, cfg.Requests * 1_000_000
	case "/echo":
		cfg.Method, cfg.BodySize = "POST", 39*units.KB
		return cfg, cfg.Requests * 39000
	}
	return cfg, cfg.Requests * 2
}

// checkExact checks a counted run's figures: every request, byte, phase
// and connection accounted for.
func checkExact(t *testing.T, cfg Config, res loadresult.Result, wantIn int64) {
	t.Helper()
	n, p := cfg.Requests, cfg.Client.Protocol
	if res.Requests != n || res.Errors.Total != 0 {
		t.Fatalf("requests %d errors %v (%s), want %d and none", res.Requests, res.Errors, res.FirstError, n)
	}
	if res.Latency.Count != n || res.Latency.P50 <= 0 || res.Latency.Max < res.Latency.P99 {
		t.Fatalf("latency %+v", res.Latency)
	}
	if res.Protocol != p.String() || res.Engine != cfg.Engine.String() || res.Connections != 2 {
		t.Fatalf("protocol %q engine %q connections %d", res.Protocol, res.Engine, res.Connections)
	}
	if cfg.BodySize > 0 && res.BytesSent != n*int64(cfg.BodySize) {
		t.Fatalf("sent %d body bytes, want %d", res.BytesSent, n*int64(cfg.BodySize))
	}
	if res.BytesReceived != wantIn {
		t.Fatalf("received %d body bytes, want %d", res.BytesReceived, wantIn)
	}
	checkExactPhases(t, cfg, res)
	if res.AllocsPerRequest <= 0 || res.ClientCPUSeconds <= 0 {
		t.Errorf("allocs/request %v cpu %v", res.AllocsPerRequest, res.ClientCPUSeconds)
	}
	if cfg.Engine == Std && res.ClientGoroutinesPeak < int64(cfg.Conns*cfg.Streams) {
		t.Errorf("goroutines at peak %d, fewer than the %d workers", res.ClientGoroutinesPeak, cfg.Conns*cfg.Streams)
	}
}

// checkExactPhases checks a counted run's phase timings (connects and
// handshakes not for h3).
func checkExactPhases(t *testing.T, cfg Config, res loadresult.Result) {
	t.Helper()
	n, p := cfg.Requests, cfg.Client.Protocol
	// Both engines time every measured request's first byte and every
	// connection's connect and handshake.
	if ph := res.Phases; ph.TTFB.Count != n || ph.TTFB.Max > res.Latency.Max || ph.TTFB.P50 <= 0 {
		t.Errorf("TTFB %+v for %d requests with latency max %v", ph.TTFB, n, res.Latency.Max)
	}
	if p != transport.H3 {
		wantTLS := int64(0)
		if p.TLS() {
			wantTLS = 2
		}
		if ph := res.Phases; ph.Connect.Count != 2 || ph.TLS.Count != wantTLS {
			t.Errorf("connects timed %d, handshakes %d; want 2 and %d", ph.Connect.Count, ph.TLS.Count, wantTLS)
		}
	}
}

func TestDurationBounded(t *testing.T) {
	ts, _ := startServer(t, nil)
	start := time.Now()
	res := mustRun(t, Config{URL: ts.URL(transport.H2C) + "/small", Client: transport.ClientOptions{Protocol: transport.H2C},
		Conns: 1, Streams: 4, Duration: 300 * time.Millisecond})
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("a 300ms run took %v", took)
	}
	if res.Requests == 0 || res.Errors.Total != 0 || res.Seconds < 0.2 || res.Seconds > 1 {
		t.Fatalf("requests %d errors %v seconds %v", res.Requests, res.Errors, res.Seconds)
	}
}

// TestMeasuredPhaseStartsAfterMeasureStart: a closed loop counts only
// requests claimed after MeasureStart returned, so server counters read
// there and in MeasureEnd include every request the client counted, however
// long the read took (on a loaded machine a /stats read took 70 ms of a
// 100 ms window, and the server's delta once held none of 190 calls); and
// the window is Duration long from there (a read that took the whole 100
// ms once left an empty window, its rate read 0 with no error).
func TestMeasuredPhaseStartsAfterMeasureStart(t *testing.T) {
	const slowStart = 50 * time.Millisecond
	ts, payload := startServer(t, nil)
	for _, engine := range []Engine{Std, Fast} {
		for _, p := range []transport.Protocol{transport.H1, transport.H2C} {
			t.Run(engine.String()+"/"+p.String(), func(t *testing.T) {
				var before, after int64
				began := time.Now()
				served := func() int64 { return payload.Stats().Protocols[p.String()].Requests }
				res := mustRun(t, Config{URL: ts.URL(p) + "/small", Client: transport.ClientOptions{Protocol: p},
					Engine: engine, Conns: 1, Streams: 1, Warmup: 20 * time.Millisecond, Duration: 200 * time.Millisecond,
					MeasureStart: func() { time.Sleep(slowStart); before = served() },
					MeasureEnd:   func(int64) { after = served() }})
				if res.Requests == 0 || res.Errors.Total != 0 {
					t.Fatalf("%d requests, errors %v %s", res.Requests, res.Errors, res.FirstError)
				}
				// One request may be in flight at each end: answered after
				// the server's last read, or (a closed loop counts what ends
				// in its window) answered before its first read and received
				// after the window began.
				if got := after - before; got < res.Requests-2 {
					t.Errorf("server served %d requests between the reads, the client counted %d", got, res.Requests)
				}
				// The window is the whole Duration, from when MeasureStart
				// returned: a slow read neither shortens nor empties it.
				if res.Seconds != 0.2 || res.Started.Sub(began) < 20*time.Millisecond+slowStart {
					t.Errorf("measured %.6fs from %v after the run began, want 0.2s from at least %v", res.Seconds, res.Started.Sub(began), 20*time.Millisecond+slowStart)
				}
			})
		}
	}
}

// TestProgressCounts: progress reports come while a run measures, count
// up, never pass the final count, and count failures (here the error
// statuses for a path the server does not have) as errors.
func TestProgressCounts(t *testing.T) {
	t.Parallel() // see TestMain
	ts, _ := startServer(t, nil)
	for _, engine := range []Engine{Std, Fast} {
		var (
			mu      sync.Mutex
			reports []Progress
		)
		res := mustRun(t, Config{URL: ts.URL(transport.H1) + "/no-such-path", Client: transport.ClientOptions{Protocol: transport.H1},
			Conns: 2, Streams: 1, Duration: 1200 * time.Millisecond, Engine: engine,
			Progress: func(p Progress) { mu.Lock(); reports = append(reports, p); mu.Unlock() }})
		mu.Lock()
		if len(reports) < 2 {
			t.Fatalf("%s: %d progress reports in 1.2 s, want 2 or more", engine, len(reports))
		}
		for i, p := range reports {
			if p.Done <= 0 || p.Errors != p.Done || p.Done > res.Requests || (i > 0 && p.Done < reports[i-1].Done) {
				t.Fatalf("%s: report %d %+v after %+v; the run ended with %d requests", engine, i, p, reports[max(i-1, 0)], res.Requests)
			}
		}
		mu.Unlock()
	}
}

// stallOnce blocks one request, the stallAt'th, for 500 ms; with one
// connection every request scheduled meanwhile waits behind it.
type stallOnce struct {
	n       atomic.Int64
	stallAt int64
}

func (s *stallOnce) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.n.Add(1) == s.stallAt {
		time.Sleep(500 * time.Millisecond)
	}
	w.Write([]byte("ok"))
}

// TestOpenLoopCountsQueueing checks coordinated-omission correction: one
// 500 ms stall delays every request scheduled during it, and the open loop
// shows that in its p99, where the closed loop sees one slow request.
func TestOpenLoopCountsQueueing(t *testing.T) {
	t.Parallel() // see TestMain
	for _, open := range []bool{true, false} {
		t.Run("open="+strconv.FormatBool(open), func(t *testing.T) {
			srv := httptest.NewServer(&stallOnce{stallAt: 50})
			defer srv.Close()
			cfg := Config{URL: srv.URL, Client: transport.ClientOptions{Protocol: transport.H1},
				Conns: 1, Streams: 1, Requests: 400}
			if open {
				cfg.Rate = 200 // 2 s of schedule; the stall covers a quarter of it
			}
			res := mustRun(t, cfg)
			if res.Requests != 400 || res.Errors.Total != 0 {
				t.Fatalf("requests %d errors %v", res.Requests, res.Errors)
			}
			if res.Latency.Max < 0.45 {
				t.Fatalf("max %v: the stall is missing", res.Latency.Max)
			}
			if open {
				if res.Latency.P90 < 0.1 || res.Schedule == nil || res.Schedule.Late < 50 {
					t.Fatalf("open loop p90 %v schedule %+v: queueing behind the stall not counted", res.Latency.P90, res.Schedule)
				}
			} else if res.Latency.P99 >= 0.45 {
				// Below the stall: only the stalled request waited it out
				// (a loaded machine may slow others, never by the stall).
				t.Fatalf("closed loop p99 %v: expected one request to wait out the stall, not 1%%", res.Latency.P99)
			}
		})
	}
}

// TestServerClosingConnections checks that connections the server drops
// mid-run are counted as errors, and the count of requests stays exact.
// It POSTs: net/http retries an idempotent request when a reused connection
// dies before any response byte, which would hide some drops.
func TestServerClosingConnections(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%5 == 0 {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	for _, engine := range []Engine{Std, Fast} {
		n.Store(0)
		res := mustRun(t, Config{URL: srv.URL, Method: "POST", Client: transport.ClientOptions{Protocol: transport.H1}, Conns: 3, Streams: 1, Requests: 200, Engine: engine})
		if res.Requests != 200 || n.Load() != 200 {
			t.Fatalf("%s: requests %d, server saw %d, want 200", engine, res.Requests, n.Load())
		}
		if res.Errors.Total != 40 || res.Errors.Reset != 40 {
			t.Fatalf("%s: errors %v (%s): want 40 resets", engine, res.Errors, res.FirstError)
		}
		if res.Connections < 30 {
			t.Fatalf("%s: connections %d: dropped connections were not replaced", engine, res.Connections)
		}
	}
}

// TestStopsWhenServerGone runs against a port nothing listens on: every
// request is refused, and the run stops after GoneAfter instead of its
// whole duration, saying why.
func TestStopsWhenServerGone(t *testing.T) {
	ts, _ := startServer(t, nil)
	url := ts.URL(transport.H1) + "/small"
	ts.Close()
	testenv.HoldPorts(t, strings.TrimPrefix(ts.URL(transport.H1), "http://"))
	start := time.Now()
	res := mustRun(t, Config{URL: url, Client: transport.ClientOptions{Protocol: transport.H1}, Conns: 2, Streams: 1, Duration: 30 * time.Second})
	if d := time.Since(start); d > goneAfter+5*time.Second {
		t.Errorf("ran %v against nothing", d)
	}
	if res.Stopped == "" || res.Errors.Of(stats.ErrRefused) == 0 || res.Errors.Total != res.Requests {
		t.Errorf("stopped %q, errors %v of %d requests", res.Stopped, res.Errors, res.Requests)
	}
}

// TestFastH3Failures: the fast engine's HTTP/3 failures count as they do
// for the other transports: a 404 by its status, a reset stream as a
// reset, never as throughput; and against a server that is gone, every
// request times out (UDP has no refusal) and the run stops after
// GoneAfter, saying why.
func TestFastH3Failures(t *testing.T) {
	t.Parallel() // see TestMain
	var n atomic.Int64
	ts, _ := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) % 5 {
		case 0:
			http.NotFound(w, r)
		case 1:
			panic(http.ErrAbortHandler)
		default:
			w.Write([]byte("ok"))
		}
	}))
	client := transport.ClientOptions{Protocol: transport.H3, RootCAs: transport.CertPool(ts.Cert())}
	res := mustRun(t, Config{URL: ts.URL(transport.H3) + "/", Client: client, Conns: 2, Streams: 3, Requests: 200, Engine: Fast})
	if res.Requests != 200 || n.Load() != 200 || res.Succeeded != 120 || res.BytesReceived != 240 {
		t.Fatalf("requests %d, server saw %d, succeeded %d, %d bytes; want 200, 200, 120, 240", res.Requests, n.Load(), res.Succeeded, res.BytesReceived)
	}
	if res.Errors.Total != 80 || res.Errors.Status != 40 || res.Errors.Reset != 40 || res.Latency.Count != 120 {
		t.Fatalf("errors %v (%s), %d latencies; want 40 statuses, 40 resets, 120", res.Errors, res.FirstError, res.Latency.Count)
	}

	url := ts.URL(transport.H3) + "/"
	ts.Close()
	client.Config.DialTimeout = 200 * time.Millisecond
	start := time.Now()
	res = mustRun(t, Config{URL: url, Client: client, Conns: 2, Streams: 2, Duration: 30 * time.Second, Engine: Fast})
	if d := time.Since(start); d > goneAfter+5*time.Second {
		t.Errorf("ran %v against nothing", d)
	}
	if res.Stopped == "" || res.Errors.Of(stats.ErrTimeout) == 0 || res.Errors.Total != res.Requests || res.Succeeded != 0 {
		t.Errorf("stopped %q, errors %v of %d requests", res.Stopped, res.Errors, res.Requests)
	}
}
