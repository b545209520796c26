package matrix

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
)

// TestLoadWithNothingFinished: a repetition in which no request finishes
// inside the measured window (a closed loop counts only requests that
// start and end there) is grown while it fits in Timeout, and when
// nothing ever finishes it is a timeout error that says so, never a
// silent 0 (an h3 cell under CPU starvation once read 0 with no error).
func TestLoadWithNothingFinished(t *testing.T) {
	var release atomic.Int64 // unix nanoseconds: 1.6 s after the first measured request
	tests := []struct {
		name    string
		handler func(served int64, w http.ResponseWriter, r *http.Request)
		timeout time.Duration
		want    string // FirstError; "" for a measured repetition
	}{
		{"slower than three windows", func(_ int64, w http.ResponseWriter, _ *http.Request) {
			// Slower than the third window (warmup 1ms + 160ms) can see
			// start and end; the fourth (640ms) can.
			time.Sleep(200 * time.Millisecond)
			w.Write([]byte("ok"))
		}, time.Minute, ""},
		{"never answers", func(served int64, w http.ResponseWriter, r *http.Request) {
			if served > 1 { // the first, prepare's check, is answered
				<-r.Context().Done()
				return
			}
			w.Write([]byte("ok"))
		}, 300 * time.Millisecond, "h1: no request finished in 3 tries, the last 160ms measured after 1ms warmup (1 connection(s) set up but no response finished)"},
		{"silent past the stall threshold, then answers", func(served int64, w http.ResponseWriter, r *http.Request) {
			// The first try (1.1 s) ends with its request waiting over
			// StallAfter on a server that answered nothing: the load
			// counts it a timeout, as a starved machine's server shows;
			// the next, longer try sees the answers.
			if served > 1 {
				release.CompareAndSwap(0, time.Now().Add(1600*time.Millisecond).UnixNano())
				select {
				case <-time.After(time.Until(time.Unix(0, release.Load()))):
				case <-r.Context().Done():
					return
				}
			}
			w.Write([]byte("ok"))
		}, time.Minute, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var served atomic.Int64
			mux := http.NewServeMux()
			mux.HandleFunc("GET /small", func(w http.ResponseWriter, r *http.Request) { tt.handler(served.Add(1), w, r) })
			duration := 10 * time.Millisecond
			if strings.HasPrefix(tt.name, "silent") {
				if testing.Short() {
					t.Skip("waits out 1.6 s of silence and a 4.4 s try; -short skips it")
				}
				duration = 1100 * time.Millisecond
			}
			res, err := run(context.Background(), Options{Options: plan.Options{
				Protocols: []transport.Protocol{transport.H1},
				Scenarios: scenarios(t, "small-sequential"),
				Repeat:    1,
				Duration:  duration,
				Warmup:    time.Millisecond,
				Timeout:   tt.timeout,
			}, Wiring: Wiring{Target: target(t, mux)}})
			if err != nil {
				t.Fatal(err)
			}
			c := res.Cell("small-sequential", "h1")
			if c == nil || c.Skipped != "" || len(c.Repetitions) != 1 {
				t.Fatalf("cell %+v", c)
			}
			r := c.Repetitions[0]
			if tt.want == "" {
				if r.Requests == 0 || r.Value <= 0 || r.Errors.Total != 0 {
					t.Errorf("%d requests, value %v, errors %v %s: want a measured repetition", r.Requests, r.Value, r.Errors, r.FirstError)
				}
				return
			}
			if r.Requests != 0 || r.Errors.Total != 1 || r.Errors.Timeout != 1 || r.FirstError != tt.want {
				t.Errorf("%d requests, errors %+v, first error %q; want one timeout %q", r.Requests, r.Errors, r.FirstError, tt.want)
			}
		})
	}
}

func TestNothingFinishedSaysWhy(t *testing.T) {
	tests := []struct {
		col     column
		conns   int64
		seconds float64 // the measured window
		want    string
	}{
		{column{name: "h3", proto: transport.H3}, 0, 0.4, "no QUIC connection set up: the handshake did not complete"},
		{column{name: "h2", proto: transport.H2}, 0, 0.4, "no connection set up: TCP connect or TLS handshake did not complete"},
		{column{name: "h2c", proto: transport.H2C}, 0, 0.4, "no connection set up: TCP connect did not complete"},
		{column{name: "h3", proto: transport.H3}, 1, 0.4, "1 connection(s) set up but no response finished"},
		{column{name: "h1-tls", proto: transport.H1TLS}, 50, 0, "the measured phase never began: the server's counters were read after its end"},
	}
	for _, tt := range tests {
		m := results.Repetition{Connections: tt.conns, Seconds: tt.seconds}
		nothingFinished(&m, tt.col, 4, 400*time.Millisecond, 25*time.Millisecond)
		want := tt.col.name + ": no request finished in 4 tries, the last 400ms measured after 25ms warmup (" + tt.want + ")"
		if m.FirstError != want || m.Errors.Timeout != 1 || m.Errors.Total != 1 {
			t.Errorf("%s with %d connections: %q, errors %+v; want %q as one timeout", tt.col.name, tt.conns, m.FirstError, m.Errors, want)
		}
	}
}

// TestUnreachableTransportTriedOnce: a TLS target without h3 (nothing on
// UDP) fails its first h3 check after the dial timeout; the run's later h3
// cells fail at once with that reason rather than waiting again.
func TestUnreachableTransportTriedOnce(t *testing.T) {
	opts := server.Loopback()
	opts.NoH3 = true
	srv, err := server.Start(server.Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := srv.Transport
	res, err := run(context.Background(), Options{Options: plan.Options{
		Protocols: []transport.Protocol{transport.H3},
		Scenarios: scenarios(t, "download,small-sequential,upload"),
		Repeat:    1,
		Duration:  50 * time.Millisecond,
		Client:    config.Client{DialTimeout: 300 * time.Millisecond},
	}, Wiring: Wiring{Target: Target{TLS: ts.URL(transport.H2), RootCAs: transport.CertPool(ts.Cert())}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cells) != 3 {
		t.Fatalf("%d cells, want 3", len(res.Cells))
	}
	for i, c := range res.Cells {
		again := strings.Contains(c.Skipped, "not tried again")
		if !c.Failed || len(c.Repetitions) != 0 || again != (i > 0) {
			t.Errorf("%s/h3: failed %v, %d repetitions, skipped %q", c.Scenario, c.Failed, len(c.Repetitions), c.Skipped)
		}
	}
}
