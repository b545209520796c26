package servercpu

import (
	"context"
	"sync"
	"time"

	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// Source is where a run reads its server's figures: the target's
// counters (httpvs serve's GET /stats), until it answers that it serves
// none or they are turned off; then its processes' CPU from /proc
// (Reader). The matrix reads it around each repetition, the capacity
// search around each rate. Safe for concurrent use; the zero value
// reads the counters first.
type Source struct {
	Reader
	mu    sync.Mutex
	start time.Time // the clock of the /proc snapshots' Seconds
	// noCounters is why the counters are not read: set once the target
	// answered that it serves none, or by TurnOff.
	noCounters string
}

// TurnOff leaves the counters unread: /proc from the first snapshot.
func (s *Source) TurnOff() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.noCounters == "" {
		s.noCounters = "server counters not read (turned off)"
	}
}

// Snapshot reads the server's figures, giving up on its counters after
// limit: its counters from statsURL with c, or, once the target has
// said it serves none, its processes' CPU, read for label from the
// socket of network at hostport (sockErr: why that socket is unknown),
// as a snapshot without Protocols whose Seconds run on the Source's own
// clock; nil and a reason when neither is to be had. The note says why
// the counters were not read.
func (s *Source) Snapshot(ctx context.Context, c *transport.Client, statsURL string, limit time.Duration, label, network, hostport string, sockErr error) (*stats.ServerStats, string) {
	s.mu.Lock()
	noCounters := s.noCounters
	s.mu.Unlock()
	if noCounters == "" {
		st, note, err := serverctl.ReachStats(ctx, c, statsURL, limit)
		if st != nil || err != nil || ctx.Err() != nil {
			return st, note // the counters, or no answer: unknown
		}
		noCounters = note
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noCounters = noCounters
	if sockErr != nil {
		return nil, noCounters + "; server CPU unknown: " + sockErr.Error()
	}
	user, sys, err := s.Read(label, network, hostport)
	if err != nil {
		return nil, noCounters + "; server CPU unknown: " + err.Error()
	}
	if s.start.IsZero() {
		s.start = time.Now()
	}
	return &stats.ServerStats{Seconds: time.Since(s.start).Seconds(), Process: stats.ProcessStats{CPUUserSeconds: user, CPUSystemSeconds: sys}}, noCounters
}
