package load

import (
	"context"
	"testing"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// BenchmarkRepetitionSetUp runs what the matrix runs as a small-concurrent
// repetition under --budget (50 connections over h1, 12.5 ms of warm-up,
// 50 ms measured) against httpvs's loopback server: its time past warm-up
// and window (extra-ms/op) and its allocations are what a repetition
// costs beyond its measurement.
//
//	go test -run '^$' -bench RepetitionSetUp -benchmem ./load
func BenchmarkRepetitionSetUp(b *testing.B) {
	srv, _ := startServer(b, nil)
	const warmup, window = 12500 * time.Microsecond, 50 * time.Millisecond
	cfg := Config{URL: srv.URL(transport.H1) + "/small", Client: transport.ClientOptions{Protocol: transport.H1},
		Conns: 50, Streams: 1, Warmup: warmup, Duration: window}
	var extra time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		res, err := Run(context.Background(), cfg)
		if err != nil || res.Errors.Total != 0 {
			b.Fatalf("%v %v %s", err, res.Errors, res.FirstError)
		}
		extra += time.Since(start) - warmup - window
	}
	b.ReportMetric(extra.Seconds()*1e3/float64(b.N), "extra-ms/op")
}
