package reference

import (
	"context"
	"fmt"
	"time"

	"github.com/httpvs/httpvs/internal/peers"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// play is a scenario of the run a reference client can play as the
// matrix does.
type play struct {
	name   string
	client string // curl, or a request-load client: h2load, wrk or oha
	metric string
	upload bool // curl: PUT to /sink instead of GET /bytes/<size>
	// Request-load clients: requests in flight; h1 opens one connection
	// per request in flight (no pipelining), HTTP/2 and HTTP/3 one
	// connection with many streams.
	inFlight int
}

// plays are in the order they run: per scenario, h2load's cells first,
// as before wrk and oha joined.
var plays = []play{
	{name: "download", client: "curl", metric: results.MetricBytesPerSecond},
	{name: "upload", client: "curl", metric: results.MetricBytesPerSecond, upload: true},
	{name: "small-sequential", client: "h2load", metric: results.MetricRequestsPerSecond, inFlight: 1},
	{name: "small-sequential", client: "wrk", metric: results.MetricRequestsPerSecond, inFlight: 1},
	{name: "small-sequential", client: "oha", metric: results.MetricRequestsPerSecond, inFlight: 1},
	{name: "small-concurrent", client: "h2load", metric: results.MetricRequestsPerSecond, inFlight: 50},
	{name: "small-concurrent", client: "wrk", metric: results.MetricRequestsPerSecond, inFlight: 50},
	{name: "small-concurrent", client: "oha", metric: results.MetricRequestsPerSecond, inFlight: 50},
}

// clientPlays are the transports a client plays, h1 first (the baseline
// of its ratios): curl and h2load every one over TCP, wrk HTTP/1.1 with
// and without TLS (all it speaks), oha HTTP/3 (the only client here that
// speaks it; over TCP h2load is the reference already).
var clientPlays = map[string][]transport.Protocol{
	"curl":   {transport.H1, transport.H2C, transport.H1TLS, transport.H2},
	"h2load": {transport.H1, transport.H2C, transport.H1TLS, transport.H2},
	"wrk":    {transport.H1, transport.H1TLS},
	"oha":    {transport.H1, transport.H3},
}

// MinColdDuration is the shortest round of a client without warm-up (wrk,
// oha): their connections' set-up is inside the measured time, and in a
// short round wrk's 50 TLS handshakes take much of it (bench/peers.sh's
// records: over a second, most of the h1-tls gap went).
const MinColdDuration = time.Second

// duration is the measured time of one round of sc.
func (r *runner) duration(sc play) time.Duration {
	if sc.client == "wrk" || sc.client == "oha" {
		return max(r.o.Duration, MinColdDuration)
	}
	return r.o.Duration
}

// protocols returns the run's transports that sc's client plays, in the
// run's order; none without h1, or with h1 alone when the run has more
// (the client would have no ratio to show: wrk in a run of h1 and h2c).
func (r *runner) protocols(sc play) []transport.Protocol {
	var out []transport.Protocol
	for _, p := range r.o.Protocols {
		if has(clientPlays[sc.client], p) {
			out = append(out, p)
		}
	}
	if !has(out, transport.H1) || (len(out) == 1 && len(r.o.Protocols) > 1) {
		return nil
	}
	return out
}

// measure runs one round of sc over p against srv: the value in sc's
// metric and the units CPU is counted per (GB or thousands of requests).
// A transfer that moved another size, or a round with a failed request,
// is an error: a failure never counts as throughput.
func (r *runner) measure(ctx context.Context, sc play, srv endpoint, p transport.Protocol) (value, per float64, err error) {
	if sc.client == "curl" {
		o := peers.CurlOptions{URL: srv.payload(p, r.o.Size), Protocol: p, Insecure: true}
		if sc.upload {
			o.URL, o.UploadFile = srv.sink(p), r.upload
		}
		res, err := peers.RunCurl(ctx, o)
		if err != nil {
			return 0, 0, err
		}
		moved, speed := res.DownloadBytes, res.DownloadSpeed
		if sc.upload {
			moved, speed = res.UploadBytes, res.UploadSpeed
		}
		if moved != int64(r.o.Size) {
			return 0, 0, fmt.Errorf("curl moved %d bytes of %d", moved, int64(r.o.Size))
		}
		return speed, float64(moved) / 1e9, nil
	}
	res, err := peers.RunLoad(ctx, peers.LoadOptions{Client: sc.client, URL: srv.small(p), Protocol: p,
		InFlight: sc.inFlight, Duration: r.duration(sc), Warmup: r.o.Duration / 4})
	if err != nil {
		return 0, 0, err
	}
	if res.Failed > 0 {
		return 0, 0, fmt.Errorf("%s: %d of %d requests failed", sc.client, res.Failed, res.Failed+res.Succeeded)
	}
	return res.RequestsPerSecond, float64(res.Succeeded) / 1000, nil
}
