package load

import (
	"context"
	"sync/atomic"
	"time"
)

// warmth tracks a closed loop's warm-up past its Warmup: the measured
// phase waits until every worker has finished one request, so that no
// connection is still being set up in it (50 TLS handshakes on two
// cores can outlast a 12.5 ms warm-up, and then take the window's CPU),
// but at most another Warmup.
type warmth struct {
	workers int64         // workers started
	done    atomic.Int64  // workers that have finished a request
	all     chan struct{} // closed when done reaches workers
}

// trackWarmth sets r.warm for a closed loop with a Warmup run by
// workers, one request at a time each (std): a fast engine's loop
// carries several connections, and is not tracked.
func (r *run) trackWarmth(std bool, workers int) {
	if !r.open && r.cfg.Warmup > 0 && std {
		r.warm = &warmth{workers: int64(workers), all: make(chan struct{})}
	}
}

// warmUp returns when the warm-up is over: at measureAt, and then once
// every worker has finished a request (at most another Warmup); or when
// ctx ends.
func (r *run) warmUp(ctx context.Context) {
	if d := time.Until(r.measureAt); d > 0 {
		select {
		case <-time.After(d):
		case <-ctx.Done():
		}
	}
	if r.warm != nil {
		r.warm.wait(ctx, r.cfg.Warmup)
	}
}

// finished notes that a worker finished its first request.
func (w *warmth) finished() {
	if w.done.Add(1) == w.workers {
		close(w.all)
	}
}

// wait returns once every worker has finished a request, after at most
// limit, or when ctx ends.
func (w *warmth) wait(ctx context.Context, limit time.Duration) {
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-w.all:
	case <-t.C:
	case <-ctx.Done():
	}
}

// openWarmup is the run's warm-up: Warmup, and on an open loop with one
// the intervals it takes to hand every connection its first request.
// The loop's workers take its tickets in turn, so at a low rate the
// last connections are first used, and set up (handshakes: round trips
// across a link), a while after the start: without it they would be set
// up in the measured window, and an objective missed for want of warm
// connections (64 connections at 100 req/s take 640 ms).
func (r *run) openWarmup() time.Duration {
	cfg := r.cfg
	if !r.open || cfg.Warmup == 0 {
		return cfg.Warmup
	}
	first := cfg.Conns // each worker's first ticket goes to its own connection
	if cfg.Conns > 1 && cfg.Streams > 1 {
		first = cfg.Conns * cfg.Streams // the workers sharing one may take them all
	}
	return cfg.Warmup + time.Duration(float64(first-1)*1e9/cfg.Rate)
}
