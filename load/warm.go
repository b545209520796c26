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

func newWarmth(workers int) *warmth {
	return &warmth{workers: int64(workers), all: make(chan struct{})}
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
