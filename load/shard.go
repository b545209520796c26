package load

import (
	"sync"
	"time"

	"github.com/httpvs/httpvs/internal/histogram"
	"github.com/httpvs/httpvs/stats"
)

// shard is a set of histograms that several workers record into.
type shard struct {
	mu                                     sync.Mutex
	latency, ttfb, connect, tls            *histogram.Histogram
	late                                   *histogram.Histogram
	lateCount                              int64
	bytesIn, bytesOut, requests, succeeded int64
	errors                                 stats.ErrorCounts
	firstErr                               string
	negotiated                             bool
	// What tells a server that stopped answering from a run that ended
	// (stall.go): the last answer and the slowest success, warmup
	// included, and the measured requests with no response cut off.
	lastAnswer time.Time
	slowest    time.Duration
	cutOff     []cutOffReq
}

// dialed records a new connection's phases, as the std engine's trace
// hooks do.
func (s *shard) dialed(connect, handshake time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.connect.Record(connect)
	if handshake > 0 {
		s.tls.Record(handshake)
	}
}

func newShard() *shard {
	return &shard{
		latency: histogram.New(), ttfb: histogram.New(),
		connect: histogram.New(), tls: histogram.New(), late: histogram.New(),
	}
}
