package transfer

import (
	"context"
	"fmt"
	"net/url"

	"github.com/httpvs/httpvs/internal/lean"
)

// fitStreams asks an HTTP/2 or HTTP/3 server how many streams one
// connection may carry at once (lean.ProbeMaxStreams: its
// SETTINGS_MAX_CONCURRENT_STREAMS, or QUIC initial_max_streams_bidi) when
// p would put more than one transfer on a connection, and, when p would
// put more than that on one, raises p.Conns so that none does: a transfer
// past the limit would otherwise wait for a stream unseen (net/http's
// client parks it with no deadline of its own). It returns the limit (0
// when unknown, none, or the server could not be asked within the dial
// timeout or RequestTimeout) and why Conns was raised ("" if it was not).
func (p *Plan) fitStreams(ctx context.Context, u *url.URL) (limit int, raised string) {
	v := p.Client.Protocol.Version()
	conns := p.connections()
	perConn := ceilDiv(p.parallel(), conns)
	if v == 1 || perConn < 2 {
		return 0, ""
	}
	bound := p.Client.Config.Effective().DialTimeout
	if p.RequestTimeout > 0 {
		bound = min(bound, p.RequestTimeout)
	}
	pctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	limit, announced, err := lean.ProbeMaxStreams(pctx, p.Client, lean.Request{URL: u})
	if err != nil {
		return 0, ""
	}
	if !announced || limit >= perConn {
		return limit, ""
	}
	what := "SETTINGS_MAX_CONCURRENT_STREAMS"
	if v == 3 {
		what = "QUIC initial_max_streams_bidi"
	}
	p.Conns = ceilDiv(p.parallel(), max(limit, 1))
	return limit, fmt.Sprintf("%d transfers at once over %d connections instead of %d: the server allows %d streams at once per connection (%s)",
		p.parallel(), p.Conns, conns, limit, what)
}

// connections returns how many connections carry p's transfers: Conns, or
// by default one per transfer at once over HTTP/1.1 and one in all
// otherwise.
func (p Plan) connections() int {
	if p.Conns > 0 {
		return p.Conns
	}
	if p.Client.Protocol.Version() == 1 {
		return p.parallel()
	}
	return 1
}

// slots hands out p's connections to the transfers running at once: each
// connection at most ceil(parallel/conns) of them, which fitStreams keeps
// within the server's stream limit, taken in turn (0, 1, ..., 0, 1, ...)
// so that the transfers that start together spread evenly. A transfer
// takes a connection's index and gives it back when it ends.
func (p Plan) slots(conns int) chan int {
	per := ceilDiv(p.parallel(), conns)
	ch := make(chan int, per*conns)
	for range per {
		for i := range conns {
			ch <- i
		}
	}
	return ch
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
