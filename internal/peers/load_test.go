package peers

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// TestWrkCountsFailures: a handler that answers 200, 302, 503 and then
// closes the connection unanswered, in turn, to one wrk connection. wrk's
// successes, statuses outside 2xx and read errors are what the handler
// did, but for the one request in flight when wrk stopped; only the 200s
// are throughput.
func TestWrkCountsFailures(t *testing.T) {
	requirePeer(t, "wrk")
	var n, ok, bad, closed atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		switch n.Add(1) % 4 {
		case 1:
			ok.Add(1)
			w.WriteHeader(http.StatusOK)
		case 2:
			bad.Add(1)
			w.WriteHeader(http.StatusFound)
		case 3:
			bad.Add(1)
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			closed.Add(1)
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
		}
	}))
	defer srv.Close()
	res, err := RunLoad(testContext(t), LoadOptions{Client: "wrk", URL: srv.URL + "/", Protocol: transport.H1, InFlight: 1, Duration: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// Read the handler's counts only once wrk has gone: its last request
	// may still be in the handler.
	srv.Close()
	within := func(got, did int64) bool { return got == did || got == did-1 }
	wantFailed := bad.Load() + closed.Load()
	// Every kind of answer was given at least once (one turn of the four),
	// and wrk counted each as the handler gave it.
	if ok.Load() < 1 || bad.Load() < 2 || closed.Load() < 1 {
		t.Fatalf("handler: %d 200s, %d 302/503s, %d closed: want every kind at least once", ok.Load(), bad.Load(), closed.Load())
	}
	if !within(res.Succeeded, ok.Load()) || !within(res.Failed, wantFailed) || res.Succeeded+res.Failed < n.Load()-1 {
		t.Fatalf("wrk: %d succeeded, %d failed; handler: %d 200s, %d 302/503s, %d closed", res.Succeeded, res.Failed, ok.Load(), bad.Load(), closed.Load())
	}
	if want := float64(res.Succeeded) / res.Duration.Seconds(); res.RequestsPerSecond != want {
		t.Fatalf("%v req/s, want the 200s alone: %v", res.RequestsPerSecond, want)
	}
}

// TestRunLoad: each request-load client over h1 against the Go server,
// through the options every client shares: nothing fails, and the server
// served what the client counted, give or take the requests in flight at
// the end.
func TestRunLoad(t *testing.T) {
	ctx := testContext(t)
	for _, client := range loadClients {
		t.Run(client, func(t *testing.T) {
			requirePeer(t, client)
			// A server of its own: the requests the client before this
			// one left in flight must not land in this one's count.
			r, _ := goServer(t)
			res, err := RunLoad(ctx, LoadOptions{Client: client, URL: r.Transport.URL(transport.H1) + SmallPath, Protocol: transport.H1, InFlight: 4, Duration: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			served := settledRequests(r, transport.H1)
			if res.Client != client || res.Protocol != transport.H1 || res.Failed != 0 || res.Succeeded <= 0 || res.Duration <= 0 || res.Process.Wall <= 0 {
				t.Fatalf("%+v", res)
			}
			// h2load's warm-up requests are served but not counted.
			if served < res.Succeeded || (client != "h2load" && served > res.Succeeded+4) {
				t.Fatalf("%s counted %d, Go server %d", client, res.Succeeded, served)
			}
		})
	}
	if _, err := RunLoad(ctx, LoadOptions{Client: "curl", URL: "http://127.0.0.1:1/", Protocol: transport.H1, Duration: time.Second}); err == nil || !strings.Contains(err.Error(), "not a request-load client") {
		t.Fatalf("curl as a load client: %v", err)
	}
}

// TestOha runs oha over every transport against the Go server (h3
// included). oha has no Debian package and CI does not build it (minutes
// of cargo on every run): this test skips when it is absent, CI or not.
// Over HTTP/3 oha stays about 30 s after its run (see OhaResult.Duration),
// so that subtest runs in parallel with the others.
func TestOha(t *testing.T) {
	requirePeer(t, "oha")
	ctx := testContext(t)
	r, _ := goServerH3(t, true)
	for _, p := range []transport.Protocol{transport.H3, transport.H1, transport.H2C, transport.H1TLS, transport.H2} {
		t.Run(p.String(), func(t *testing.T) {
			if p == transport.H3 {
				t.Parallel()
			}
			const conns, streams = 2, 4
			before := requests(r, p)
			res, err := RunOha(ctx, OhaOptions{URL: r.Transport.URL(p) + SmallPath, Protocol: p, Connections: conns, Streams: streams, Duration: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			served := settledRequests(r, p) - before
			if res.Failed() != 0 || res.Succeeded <= 0 || res.Duration != 300*time.Millisecond || res.Responses[200] != res.Succeeded {
				t.Fatalf("%+v", res)
			}
			if served < res.Succeeded || served > res.Succeeded+conns*streams {
				t.Fatalf("oha counted %d, Go server %d over %s", res.Succeeded, served, p)
			}
		})
	}
	// oha calls any response a success; a 400 is a failure here.
	t.Run("400", func(t *testing.T) {
		var served atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			served.Add(1)
			w.WriteHeader(http.StatusBadRequest)
		}))
		defer srv.Close()
		res, err := RunLoad(ctx, LoadOptions{Client: "oha", URL: srv.URL + "/", Protocol: transport.H1, InFlight: 2, Duration: 200 * time.Millisecond})
		srv.Close()
		if err == nil || res.Succeeded != 0 || res.Failed <= 0 || res.Failed > served.Load() || res.Failed < served.Load()-2 {
			t.Fatalf("%+v, %v; handler answered %d", res, err, served.Load())
		}
	})
}
