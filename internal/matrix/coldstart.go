package matrix

import (
	"context"
	"crypto/tls"
	"net/http/httptrace"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go/http3"

	"github.com/httpvs/httpvs/internal/histogram"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// coldStart measures one repetition of cold-start or cold-start-resumed:
// one request after another, each from a new client on a brand-new
// connection that is closed after it. The resumed variant shares a TLS
// session cache between the clients (primed by one unmeasured request
// first) and sends h3 requests in 0-RTT. Value is the median time from
// the request's start (before the dial) to the end of its body.
func (r *runner) coldStart(ctx context.Context, sc Scenario, col column) results.Repetition {
	opts := r.clientOptions(sc, col.proto)
	method, url := spec(&sc).Method, targetBase(r.opts.Target, col.proto)+spec(&sc).Path
	var conns int64
	if scenariospec.Of(&sc).Resume && col.proto.TLS() {
		opts.SessionCache = tls.NewLRUClientSessionCache(8)
		if col.proto == transport.H3 {
			method = http3.MethodGet0RTT
		}
		if _, err := r.coldOne(ctx, opts, method, url, &conns); err != nil {
			m := results.Repetition{Streams: 1, Requests: 1, FirstError: "priming the session cache: " + err.Error()}
			m.Errors.Count(transport.Classify(err))
			return m
		}
		conns = 0
	}
	n := r.beginNet(ctx, col, 1)
	var (
		negotiated        string
		connect, hs, ttfb = histogram.New(), histogram.New(), histogram.New()
		resumed           int64
	)
	for n.more(ctx) {
		c, err := r.coldOne(ctx, opts, method, url, &conns)
		if err != nil {
			n.fail(err)
			n.unitFailed()
			continue
		}
		negotiated = c.negotiated
		n.ok(c.bytes)
		n.unit(c.total)
		connect.Record(c.connect)
		if col.proto.TLS() {
			hs.Record(c.tls)
		}
		ttfb.Record(c.ttfb)
		if c.resumed {
			resumed++
		}
	}
	m := n.end(ctx, conns, negotiated)
	m.Phases = &results.Phases{Connect: connect.Summary(), TLS: hs.Summary(), TTFB: ttfb.Summary(), Resumed: resumed}
	return m
}

// cold is one cold request's timings and what it fetched.
type cold struct {
	fetched
	connect, tls, ttfb, total time.Duration
}

// coldOne makes a client, sends one request on its new connection, and
// closes it; conns counts the connections it opened.
//
// The phases come from httptrace: GetConn to GotConn is the whole set-up
// (quic-go fires both around its dial, and nothing between when the dial
// is ours), ConnectStart to ConnectDone the TCP connect (net's dialer
// fires them), the rest of the set-up the TLS handshake.
func (r *runner) coldOne(ctx context.Context, opts transport.ClientOptions, method, url string, conns *int64) (cold, error) {
	c, err := transport.NewClient(opts)
	if err != nil {
		return cold{}, err
	}
	defer func() {
		c.Close()
		*conns += c.Counters().Connections
	}()
	var getConn, gotConn, connectStart, connectDone, first atomic.Int64
	start := time.Now()
	since := func() int64 { return int64(time.Since(start)) + 1 } // 0 is "not fired"
	trace := &httptrace.ClientTrace{
		GetConn:              func(string) { getConn.CompareAndSwap(0, since()) },
		GotConn:              func(httptrace.GotConnInfo) { gotConn.CompareAndSwap(0, since()) },
		ConnectStart:         func(string, string) { connectStart.CompareAndSwap(0, since()) },
		ConnectDone:          func(string, string, error) { connectDone.CompareAndSwap(0, since()) },
		GotFirstResponseByte: func() { first.CompareAndSwap(0, since()) },
	}
	ctx, cancel := context.WithTimeout(httptrace.WithClientTrace(ctx, trace), r.requestTimeout())
	defer cancel()
	var out cold
	out.fetched, err = get(ctx, c, method, url)
	out.total = time.Since(start)
	if err != nil {
		return out, err
	}
	setup := time.Duration(gotConn.Load() - getConn.Load())
	out.connect, out.tls = setup, setup // QUIC: one handshake
	if connectDone.Load() > 0 {
		out.connect = time.Duration(connectDone.Load() - connectStart.Load())
		out.tls = 0
		if opts.Protocol.TLS() {
			out.tls = time.Duration(gotConn.Load() - connectDone.Load())
		}
	}
	out.ttfb = out.total
	if f := first.Load(); f > 0 {
		out.ttfb = time.Duration(f - 1)
	}
	return out, nil
}
