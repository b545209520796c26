// Package reference measures a run's scenarios with reference peers -
// servers (h2o, nginx and nghttpd in C; caddy, in Go, the only one here
// with HTTP/3) and clients not written in Go (curl for transfers; h2load,
// wrk and oha for requests) - and with those clients against the run's
// own Go server, so that a transport's gap to h1 can be split into what
// the protocol costs and what Go's client and server cost.
package reference

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/peers"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// Defaults used when Options fields are zero.
const (
	DefaultSize     = 256 * units.MiB        // each transfer
	DefaultDuration = 300 * time.Millisecond // each request-load round
	DefaultRounds   = 3
)

// Target is the run's own server: base URLs as plan.Target's.
type Target struct {
	Plain string // h1 and h2c, e.g. http://127.0.0.1:8080; "" leaves them out
	TLS   string // h1-tls and h2; "" leaves them out
}

// Options say what to measure.
type Options struct {
	// Servers are the server peers to start, each on loopback.
	Servers []peers.Peer
	// Clients are the client peers: curl plays transfers; h2load (h1, h2c,
	// h1-tls, h2), wrk (h1, h1-tls) and oha (h1, h3) play requests, each
	// with its own h1 as the baseline of its ratios.
	Clients []peers.Peer
	// Go is the run's server, measured with the client peers as well; a
	// zero Target leaves it out.
	Go Target
	// Protocols are the transports; h1 must be among them (the ratios are
	// to h1). Those a peer does not speak are left out for it.
	Protocols []transport.Protocol
	// Scenarios are the run's scenario names; those a reference client
	// plays (download, upload, small-sequential, small-concurrent) are
	// measured, each over the transports its client plays.
	Scenarios []string
	// Rounds per cell; if zero, DefaultRounds. A round measures h1 then
	// the other transports, so drift hits them alike.
	Rounds int
	// Size is each transfer's body, in bytes; if zero, DefaultSize.
	Size units.Bytes
	// Duration is each request-load round's measured time; if zero,
	// DefaultDuration. wrk and oha, which have no warm-up, run at least
	// MinColdDuration; wrk stops on 100 ms ticks, so its rounds last a
	// multiple of 100 ms.
	Duration time.Duration
	// Progress, if set, is told what is measured next.
	Progress func(what string)
	// ServerCPUs, if set, bind the server peers to these CPUs (as the
	// run's own server is, apart from the generator, whose CPUs the
	// client peers inherit); nil leaves them to the scheduler.
	ServerCPUs []int
}

// Run measures every scenario a reference client plays, over every
// transport, with each server (the run's own first) and the client that
// plays it. A server that fails to start is a skipped cell per transport,
// not an error; an error is returned only for options it cannot run.
func Run(ctx context.Context, o Options) ([]results.ReferenceCell, error) {
	if o.Rounds == 0 {
		o.Rounds = DefaultRounds
	}
	if o.Size == 0 {
		o.Size = DefaultSize
	}
	if o.Duration == 0 {
		o.Duration = DefaultDuration
	}
	if !has(o.Protocols, transport.H1) {
		return nil, fmt.Errorf("reference peers: h1 is the baseline and must be among the transports")
	}
	upload, err := sparseFile(o.Size)
	if err != nil {
		return nil, err
	}
	defer os.Remove(upload)
	r := &runner{o: o, upload: upload}
	if o.Go.Plain != "" || o.Go.TLS != "" {
		r.server(ctx, goServer{o.Go})
	}
	for _, p := range o.Servers {
		if ctx.Err() != nil {
			break
		}
		srv, err := peers.Start(ctx, p.Name, peers.ServerOptions{Sizes: []units.Bytes{o.Size}, CPUs: o.ServerCPUs})
		if err != nil {
			r.cells = append(r.cells, r.skipped(p.Name, "not started: "+err.Error())...)
			continue
		}
		r.server(ctx, peerServer{srv})
		srv.Stop()
	}
	if len(r.finish) > 0 && o.Progress != nil {
		o.Progress("oha's h3 reports (oha waits out the QUIC idle timeout, up to 30 s)")
	}
	for _, f := range r.finish {
		f()
	}
	ratios(r.cells)
	return r.cells, nil
}

// runner is one Run's state.
type runner struct {
	o      Options
	upload string // a file of o.Size bytes to PUT
	cells  []results.ReferenceCell
	// finish fills in the rounds of cells whose last outcome came after
	// their play (oha's HTTP/3 runs): Run calls each at its end.
	finish []func()
}

// server measures every scenario against srv into r.cells.
func (r *runner) server(ctx context.Context, srv endpoint) {
	for _, sc := range plays {
		if !has(r.o.Scenarios, sc.name) {
			continue
		}
		client, ok := r.client(sc.client)
		if !ok {
			continue
		}
		protocols := r.protocols(sc)
		if protocols == nil {
			continue
		}
		cells := make([]results.ReferenceCell, len(protocols))
		for i, p := range protocols {
			cells[i] = results.ReferenceCell{Scenario: sc.name, Server: srv.name(), Language: language(srv.name()), Client: client, Protocol: p.String(), Metric: sc.metric}
			cells[i].Skipped = srv.lacks(p, sc)
		}
		if sc.client == "curl" {
			// One unmeasured transfer each: the first read of a payload
			// fills the page cache (h2o's first 256 MiB ran at 0.4 GB/s,
			// the next at 3.4).
			for i, p := range protocols {
				if cells[i].Skipped == "" && ctx.Err() == nil {
					r.measure(ctx, sc, srv, p)
				}
			}
		}
		base := len(r.cells)
		r.cells = append(r.cells, cells...)
		r.rounds(ctx, sc, srv, protocols, base)
	}
}

// client returns the name of the client peer of kind (curl, h2load, wrk
// or oha) if the options have it.
func (r *runner) client(kind string) (string, bool) {
	for _, c := range r.o.Clients {
		if c.Name == kind {
			return c.Name, true
		}
	}
	return "", false
}

// skipped is one skipped cell per scenario and transport for a server
// that could not be used.
func (r *runner) skipped(server, why string) []results.ReferenceCell {
	var out []results.ReferenceCell
	for _, sc := range plays {
		client, ok := r.client(sc.client)
		if !has(r.o.Scenarios, sc.name) || !ok {
			continue
		}
		for _, p := range r.protocols(sc) {
			out = append(out, results.ReferenceCell{Scenario: sc.name, Server: server, Language: language(server), Client: client, Protocol: p.String(), Metric: sc.metric, Skipped: why})
		}
	}
	return out
}

// ratios sets each cell's VsH1 against the h1 cell of its scenario,
// server and client.
func ratios(cells []results.ReferenceCell) {
	base := map[[3]string]*results.Cell{}
	for _, c := range cells {
		if c.Protocol == transport.H1.String() && c.Skipped == "" {
			v := analysis.ReferenceValues(c)
			base[[3]string{c.Scenario, c.Server, c.Client}] = &v
		}
	}
	for i := range cells {
		c := &cells[i]
		b := base[[3]string{c.Scenario, c.Server, c.Client}]
		if b == nil || c.Skipped != "" || c.Protocol == transport.H1.String() {
			continue
		}
		v := analysis.ReferenceValues(*c)
		if iv := analysis.RatioInterval(&v, b); iv.Pairs > 0 {
			c.VsH1 = &iv
		}
	}
}

// language is what the server called name is written in: Go for the
// run's own server, else the peers' catalogue's ("" when unknown).
func language(name string) string {
	if name == vocab.ReferenceGo {
		return "Go"
	}
	p, err := peers.Lookup(name)
	if err != nil {
		return ""
	}
	return p.Language
}
