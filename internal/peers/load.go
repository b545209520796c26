package peers

import (
	"context"
	"fmt"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// LoadOptions describe one request-load run by a client peer, in the
// terms httpvs's scenarios use; RunLoad turns them into the client's own
// flags.
type LoadOptions struct {
	// Client is the client peer: h2load, wrk or oha.
	Client string
	// URL is requested, e.g. http://127.0.0.1:8080/small.
	URL string
	// Protocol is the transport; the client must speak it (Peer.Speaks).
	// Certificates are not verified.
	Protocol transport.Protocol
	// InFlight is the number of requests in flight; if zero, 1. Over
	// HTTP/1.1 each has a connection of its own (no pipelining); over
	// HTTP/2 and HTTP/3 they are streams of one connection.
	InFlight int
	// Duration is the measured time.
	Duration time.Duration
	// Warmup runs before Duration, unmeasured, where the client can
	// (h2load; wrk and oha cannot, so their connections' set-up is in
	// Duration).
	Warmup time.Duration
	// Timeout bounds the run; if zero, the client's default.
	Timeout time.Duration
}

// LoadResult is one request-load run, the same for every client.
type LoadResult struct {
	// Client is the client peer that ran.
	Client string
	// Protocol is the transport the run used, as the client reported it
	// (wrk does not report it: the one asked for).
	Protocol transport.Protocol
	// Duration is the measured time.
	Duration time.Duration
	// Succeeded counts responses with a 2xx status.
	Succeeded int64
	// Failed counts the requests that did not succeed: other statuses,
	// socket and protocol errors, timeouts. Never part of Succeeded.
	Failed int64
	// RequestsPerSecond is Succeeded over Duration, per second.
	RequestsPerSecond float64
	// Process is the client's whole process: wall, user and system time.
	Process ProcessTime
}

// loadClients are the client peers RunLoad runs, for messages and tests.
var loadClients = []string{"h2load", "wrk", "oha"}

// RunLoad runs o.Client for o.Duration against o.URL. A run that the
// client's own Run function rejects, or in which no request succeeded,
// is an error; otherwise failed requests are counted in the result.
func RunLoad(ctx context.Context, o LoadOptions) (LoadResult, error) {
	n := max(o.InFlight, 1)
	var res LoadResult
	switch o.Client {
	case "h2load":
		ho := H2loadOptions{URL: o.URL, Protocol: o.Protocol, Clients: 1, Streams: n, Duration: o.Duration, Warmup: o.Warmup, Timeout: o.Timeout}
		if o.Protocol.Version() == 1 {
			ho.Clients, ho.Streams = n, 1
		}
		r, err := RunH2load(ctx, ho)
		if err != nil {
			return LoadResult{}, err
		}
		res = r.Load()
	case "wrk":
		r, err := RunWrk(ctx, WrkOptions{URL: o.URL, Protocol: o.Protocol, Connections: n, Threads: min(n, 2), Duration: o.Duration, Timeout: o.Timeout})
		if err != nil {
			return LoadResult{}, err
		}
		res = r.Load(o.Protocol)
	case "oha":
		oo := OhaOptions{URL: o.URL, Protocol: o.Protocol, Connections: 1, Streams: n, Duration: o.Duration, Timeout: o.Timeout}
		if o.Protocol.Version() == 1 {
			oo.Connections, oo.Streams = n, 1
		}
		r, err := RunOha(ctx, oo)
		if err != nil {
			return LoadResult{}, err
		}
		res = r.Load(o.Protocol)
	default:
		return LoadResult{}, fmt.Errorf("%q is not a request-load client: want one of %v", o.Client, loadClients)
	}
	if res.Succeeded == 0 {
		return res, fmt.Errorf("%s %s: no request succeeded, %d failed", o.Client, o.URL, res.Failed)
	}
	return res, nil
}

// Load returns r in the terms every client shares. h2load counts 3xx as
// succeeded; here they are failures.
func (r H2loadResult) Load() LoadResult {
	l := LoadResult{Client: "h2load", Protocol: r.Protocol, Duration: r.Finished, Process: r.Process,
		Succeeded: max(r.Succeeded-r.Status[1], 0), Failed: r.Failed + r.Status[1], RequestsPerSecond: r.RequestsPerSecond}
	if r.Succeeded > 0 {
		l.RequestsPerSecond *= float64(l.Succeeded) / float64(r.Succeeded)
	}
	return l
}

// Load returns r in the terms every client shares; wrk does not say which
// protocol it spoke, so the caller does.
func (r WrkResult) Load(p transport.Protocol) LoadResult {
	return LoadResult{Client: "wrk", Protocol: p, Duration: r.Duration, Process: r.Process,
		Succeeded: r.Succeeded, Failed: r.Errors.Total(), RequestsPerSecond: r.RequestsPerSecond}
}
