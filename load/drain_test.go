package load

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// slowly answers every request after d.
func slowly(d time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(d):
		case <-r.Context().Done():
		}
		w.Write([]byte("ok"))
	}
}

// TestOpenLoopWaitsForRequestsInFlight: at 20/s for 500 ms, ten requests
// are due (0 to 450 ms); each takes 300 ms, so the last five are in
// flight when the window closes. All ten count, each at least 300 ms
// from when it was due, and the rates are over the window and the wait.
func TestOpenLoopWaitsForRequestsInFlight(t *testing.T) {
	t.Parallel() // see TestMain
	ts, _ := startServer(t, slowly(300*time.Millisecond))
	for _, p := range []transport.Protocol{transport.H1, transport.H2C, transport.H3} {
		t.Run(p.String(), func(t *testing.T) {
			t.Parallel()
			res := mustRun(t, Config{URL: ts.URL(p) + "/", Client: transport.ClientOptions{Protocol: p, RootCAs: transport.CertPool(ts.Cert())},
				Conns: 10, Streams: 1, Rate: 20, Duration: 500 * time.Millisecond})
			if res.Requests != 10 || res.Succeeded != 10 || res.Errors.Total != 0 {
				t.Fatalf("requests %d, succeeded %d, errors %v (%s): want the 10 due, all answered", res.Requests, res.Succeeded, res.Errors, res.FirstError)
			}
			if res.Latency.Min < 0.3 {
				t.Errorf("latency min %v s: want every request's 300 ms", res.Latency.Min)
			}
			if res.Seconds < 0.75 {
				t.Errorf("seconds %v: the last due (450 ms) cannot end before 750 ms", res.Seconds)
			}
		})
	}
}

// TestOpenLoopWaitsForRequestsQueued: over one connection that takes
// 100 ms a request, ten requests are due in 200 ms; eight still wait for
// the connection when the window closes. All ten count, and the last,
// due at 180 ms, waited for the nine before it: at least 820 ms.
func TestOpenLoopWaitsForRequestsQueued(t *testing.T) {
	t.Parallel() // see TestMain
	ts, _ := startServer(t, slowly(100*time.Millisecond))
	res := mustRun(t, Config{URL: ts.URL(transport.H1) + "/", Client: transport.ClientOptions{Protocol: transport.H1},
		Conns: 1, Streams: 1, Rate: 50, Duration: 200 * time.Millisecond})
	if res.Requests != 10 || res.Succeeded != 10 || res.Errors.Total != 0 {
		t.Fatalf("requests %d, succeeded %d, errors %v (%s): want the 10 due, all answered", res.Requests, res.Succeeded, res.Errors, res.FirstError)
	}
	if res.Latency.Max < 0.82 || res.Seconds < 1 {
		t.Errorf("latency max %v s over %v s: want the queue counted, from when each was due", res.Latency.Max, res.Seconds)
	}
	if res.Schedule == nil || res.Schedule.Late < 8 {
		t.Errorf("schedule %+v: want at least 8 requests sent late", res.Schedule)
	}
}

// TestOpenLoopWaitIsBounded: over one connection that takes 400 ms a
// request, five requests are due in 250 ms, and the wait for them ends
// RequestTimeout (1.5 s) after the window, before the fifth can end (at
// 2 s at the earliest): those not answered by then, sent or not, are
// timeouts. Had the run waited, all five would succeed; had it not
// waited, none would count.
func TestOpenLoopWaitIsBounded(t *testing.T) {
	t.Parallel() // see TestMain
	ts, _ := startServer(t, slowly(400*time.Millisecond))
	res := mustRun(t, Config{URL: ts.URL(transport.H1) + "/", Client: transport.ClientOptions{Protocol: transport.H1},
		Conns: 1, Streams: 1, Rate: 20, Duration: 250 * time.Millisecond, RequestTimeout: 1500 * time.Millisecond})
	if res.Requests != 5 || res.Succeeded == 0 || res.Succeeded == 5 || res.Errors.Timeout != res.Errors.Total || res.Succeeded+res.Errors.Total != 5 {
		t.Fatalf("requests %d, succeeded %d, errors %v: want 5, the last ones timeouts", res.Requests, res.Succeeded, res.Errors)
	}
	if !strings.Contains(res.FirstError, "never sent") || res.Stopped != "" {
		t.Errorf("first error %q, stopped %q: want the unsent ones said, and the server not said gone", res.FirstError, res.Stopped)
	}
}

// TestOpenLoopWaitEndsOnSilence: a server that answers the first two
// requests and then nothing leaves the run waiting on its silence, not
// for RequestTimeout (30 s): the requests it left unanswered are timeouts
// and the result says it stopped answering. So too when its two answers
// come after the window has closed (as on a starved machine), when the
// server had not yet been heard from.
func TestOpenLoopWaitEndsOnSilence(t *testing.T) {
	t.Parallel() // see TestMain
	for _, late := range []time.Duration{0, 700 * time.Millisecond} {
		t.Run("answers after "+late.String(), func(t *testing.T) {
			t.Parallel()
			var n atomic.Int64
			ts, _ := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if n.Add(1) > 2 {
					<-r.Context().Done()
					return
				}
				time.Sleep(late)
				w.Write([]byte("ok"))
			}))
			start := time.Now()
			res := mustRun(t, Config{URL: ts.URL(transport.H1) + "/", Client: transport.ClientOptions{Protocol: transport.H1},
				Conns: 10, Streams: 1, Rate: 20, Duration: 300 * time.Millisecond})
			if took := time.Since(start); took >= 30*time.Second {
				t.Fatalf("ran %v: the wait ran to RequestTimeout", took)
			}
			if res.Requests != 6 || res.Succeeded != 2 || res.Errors.Timeout != 4 || res.Errors.Total != 4 {
				t.Fatalf("requests %d, succeeded %d, errors %v (%s): want 6, 2 answered and 4 timeouts", res.Requests, res.Succeeded, res.Errors, res.FirstError)
			}
			if !strings.Contains(res.Stopped, "stopped answering") {
				t.Errorf("stopped %q: want the server said to have stopped answering", res.Stopped)
			}
		})
	}
}
