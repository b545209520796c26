package load

import (
	"context"
	"fmt"
	"net/url"
	"runtime"

	"github.com/httpvs/httpvs/internal/lean"
	"github.com/httpvs/httpvs/transport"
)

// h2ConnsPerLoop is how many HTTP/2 connections one fast-engine loop
// drives before another loop (up to one per core) shares them. One loop
// multiplexing 10 connections of 10 streams answers h2o at 550-650k req/s
// on this repository's 2-core machine, using well under a core; two loops
// there got ~15% less, as the second thread took the server's core
// (h2o spent ~5% more CPU per request). h2load runs one thread unless
// told (-t).
const h2ConnsPerLoop = 10

// leanLoops plans the fast engine's closed loops (lean.Loop), which run
// without a goroutine per request, sharing the connections as wrk's and
// h2load's threads do: HTTP/1.1, one loop per core; HTTP/2, one per
// h2ConnsPerLoop connections up to one per core, each connection with
// Streams streams; where one loop cannot drive several HTTP/2
// connections, one loop per connection. Loop i is run by clients[i] and
// has its Streams and Conns set; nil means a goroutine per stream instead
// (open loops, the std engine, h1-tls).
func (r *run) leanLoops(clients []connClient) []lean.Loop {
	if !r.cfg.Engine.isFast() || r.cfg.NewCaller != nil || r.open {
		return nil
	}
	lc, ok := clients[0].(*lean.Client)
	if !ok || !lc.CanLoop() {
		return nil
	}
	if r.cfg.Client.Protocol.Version() == 2 && !lc.CanShareLoop() {
		loops := make([]lean.Loop, len(clients))
		for i := range loops {
			loops[i] = lean.Loop{Streams: r.cfg.Streams, Conns: 1}
		}
		return loops
	}
	n := min(len(clients), runtime.GOMAXPROCS(0))
	if r.cfg.Client.Protocol.Version() == 2 {
		n = min(n, (len(clients)+h2ConnsPerLoop-1)/h2ConnsPerLoop)
	}
	loops := make([]lean.Loop, n)
	for i := range r.cfg.Conns {
		if r.cfg.Client.Protocol.Version() == 2 {
			loops[i%len(loops)].Streams = r.cfg.Streams
			loops[i%len(loops)].Conns++
		} else {
			loops[i%len(loops)].Streams++ // HTTP/1.1: one request per connection
		}
	}
	return loops
}

// connClient is one connection slot of either engine.
type connClient interface {
	Connections() int64
	Close() error
}

// stdClient is the std engine's connection slot.
type stdClient struct{ *transport.Client }

func (c stdClient) Connections() int64 { return c.Counters().Connections }

// newClients makes one client per connection for the run's engine.
func (r *run) newClients() ([]connClient, error) {
	clients := make([]connClient, r.cfg.Conns)
	for i := range clients {
		opts := r.cfg.Client
		opts.MaxConnsPerHost = 1
		var (
			c   connClient
			err error
		)
		switch {
		case r.cfg.NewCaller != nil:
			c, err = r.cfg.NewCaller()
		case r.cfg.Engine.isFast():
			var lc *lean.Client
			lc, err = lean.NewClient(opts, lean.Request{Method: r.cfg.Method, URL: r.url, Host: r.host, Header: r.header, Body: r.body})
			if err == nil {
				lc.OnDial = r.shards[i%len(r.shards)].dialed
			}
			c = lc
		default:
			var tc *transport.Client
			if tc, err = transport.NewClient(opts); err == nil {
				c = stdClient{tc}
			}
		}
		if err != nil {
			closeClients(clients[:i])
			return nil, err
		}
		clients[i] = c
	}
	return clients, nil
}

// streamLimit asks an HTTP/2 server, or an HTTP/3 server the fast engine
// runs against, how many streams one connection may carry
// (lean.ProbeMaxStreams) when the run wants more than one, and lowers
// cfg.Streams to it: requests beyond it would wait for a stream unseen
// (and net/http's client stalls there). The std engine's h3 runs are left
// as they were: quic-go's client queues such requests itself. It returns
// the server's limit (0 when unknown or none) and why Streams was lowered
// ("" if not).
func streamLimit(ctx context.Context, cfg *Config, u *url.URL) (int, string) {
	v := cfg.Client.Protocol.Version()
	if cfg.NewCaller != nil || cfg.Streams < 2 || !(v == 2 || v == 3 && cfg.Engine.isFast()) {
		return 0, ""
	}
	pctx, cancel := context.WithTimeout(ctx, cfg.Client.Config.Effective().DialTimeout)
	defer cancel()
	limit, announced, err := lean.ProbeMaxStreams(pctx, cfg.Client, lean.Request{URL: u})
	if err != nil || !announced || limit >= cfg.Streams {
		return limit, "" // a server that cannot be reached shows it in the run's errors
	}
	what := "SETTINGS_MAX_CONCURRENT_STREAMS"
	if v == 3 {
		what = "QUIC initial_max_streams_bidi"
	}
	why := fmt.Sprintf("streams per connection lowered from %d to %d: the server allows %d at once (%s)", cfg.Streams, max(limit, 1), limit, what)
	cfg.Streams = max(limit, 1)
	return limit, why
}

func closeClients(cs []connClient) {
	for _, c := range cs {
		if c != nil {
			c.Close()
		}
	}
}
