package reference

import (
	"context"
	"fmt"

	"github.com/httpvs/httpvs/matrix"
	"github.com/httpvs/httpvs/peers"
	"github.com/httpvs/httpvs/transport"
)

// play is a scenario of the run a reference client can play as the
// matrix does.
type play struct {
	name   string
	client string // "curl" or "h2load"
	metric string
	upload bool // curl: PUT to /sink instead of GET /bytes/<size>
	// h2load: requests in flight; h1 opens one connection per request
	// in flight (no pipelining), HTTP/2 one connection with many streams.
	inFlight int
}

var plays = []play{
	{name: "download", client: "curl", metric: matrix.MetricBytesPerSecond},
	{name: "upload", client: "curl", metric: matrix.MetricBytesPerSecond, upload: true},
	{name: "small-sequential", client: "h2load", metric: matrix.MetricRequestsPerSecond, inFlight: 1},
	{name: "small-concurrent", client: "h2load", metric: matrix.MetricRequestsPerSecond, inFlight: 50},
}

// measure runs one round of sc over p against srv: the value in sc's
// metric and the units CPU is counted per (GB or thousands of requests).
// A transfer that moved another size, or a request that failed, is an
// error: it never counts as throughput.
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
	o := peers.H2loadOptions{URL: srv.small(p), Protocol: p, Clients: 1, Streams: sc.inFlight, Duration: r.o.Duration, Warmup: r.o.Duration / 4}
	if p.Version() == 1 {
		o.Clients, o.Streams = sc.inFlight, 1
	}
	res, err := peers.RunH2load(ctx, o)
	if err != nil {
		return 0, 0, err
	}
	if bad := res.Failed + res.Errored + res.Timeout; bad > 0 {
		return 0, 0, fmt.Errorf("h2load: %d of %d requests failed", bad, res.Done)
	}
	return res.RequestsPerSecond, float64(res.Succeeded) / 1000, nil
}
