package load

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// firstHeld serves /: each connection's first request waits for release
// (a slow set-up), and the time each first response was written is kept.
type firstHeld struct {
	release chan struct{}
	mu      sync.Mutex
	seen    map[string]bool
	written []time.Time
}

func (f *firstHeld) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	first := !f.seen[r.RemoteAddr]
	f.seen[r.RemoteAddr] = true
	f.mu.Unlock()
	if first {
		select {
		case <-f.release:
		case <-r.Context().Done():
			return
		}
		defer func() {
			f.mu.Lock()
			f.written = append(f.written, time.Now())
			f.mu.Unlock()
		}()
	}
	_, _ = w.Write([]byte("ok"))
}

// runHeld runs a closed loop of 4 connections against f with warmup,
// calling release (if not nil) when measuring begins; it returns when
// measuring began.
func runHeld(t *testing.T, f *firstHeld, warmup time.Duration, release func()) time.Time {
	t.Helper()
	srv := httptest.NewServer(f)
	defer srv.Close()
	var measureAt time.Time
	res := mustRun(t, Config{URL: srv.URL + "/", Client: transport.ClientOptions{Protocol: transport.H1},
		Conns: 4, Streams: 1, Warmup: warmup, Duration: 100 * time.Millisecond, RequestTimeout: 10 * time.Second,
		MeasureStart: func() {
			measureAt = time.Now()
			if release != nil {
				release()
			}
		}})
	if res.Errors.Total != 0 || res.Requests == 0 {
		t.Fatalf("%d requests, errors %v %s", res.Requests, res.Errors, res.FirstError)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.written) != 4 {
		t.Fatalf("%d connections' first requests answered, want 4", len(f.written))
	}
	return measureAt
}

// TestMeasuringWaitsForEveryConnection: a closed loop's measured phase
// begins once every worker has finished a request, past its Warmup, so
// that no connection is still being set up inside it.
func TestMeasuringWaitsForEveryConnection(t *testing.T) {
	const warmup = 400 * time.Millisecond
	f := &firstHeld{release: make(chan struct{}), seen: map[string]bool{}}
	// Released after the Warmup, well before another Warmup has passed.
	timer := time.AfterFunc(warmup*3/2, func() { close(f.release) })
	defer timer.Stop()
	measureAt := runHeld(t, f, warmup, nil)
	for _, w := range f.written {
		if measureAt.Before(w) {
			t.Errorf("measuring began at %v, before a first request was answered at %v", measureAt.Format(time.StampMicro), w.Format(time.StampMicro))
		}
	}
}

// TestMeasuringWaitsAtMostAnotherWarmup: when a connection's first
// request does not finish, measuring begins all the same, at most another
// Warmup later (here it is what releases the held requests).
func TestMeasuringWaitsAtMostAnotherWarmup(t *testing.T) {
	f := &firstHeld{release: make(chan struct{}), seen: map[string]bool{}}
	measureAt := runHeld(t, f, 20*time.Millisecond, func() { close(f.release) })
	for _, w := range f.written {
		if w.Before(measureAt) {
			t.Errorf("a first request was answered at %v, before measuring began at %v", w.Format(time.StampMicro), measureAt.Format(time.StampMicro))
		}
	}
}
