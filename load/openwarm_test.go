package load

import (
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// TestOpenLoopWarmsEveryConnection: at 20 req/s over 8 connections, the
// workers take the tickets in turn, so the eighth connection is first
// used 350 ms after the start, past a 200 ms warm-up: the warm-up is
// longer by those intervals, and the server accepts every connection
// before the measured phase starts.
func TestOpenLoopWarmsEveryConnection(t *testing.T) {
	t.Parallel() // see TestMain
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu       sync.Mutex
		accepted []time.Time
	)
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) }),
		ConnState: func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				mu.Lock()
				accepted = append(accepted, time.Now())
				mu.Unlock()
			}
		},
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	for _, engine := range []Engine{Std, Fast} {
		mu.Lock()
		accepted = nil
		mu.Unlock()
		res := mustRun(t, Config{URL: "http://" + ln.Addr().String() + "/", Client: transport.ClientOptions{Protocol: transport.H1}, Engine: engine,
			Conns: 8, Streams: 1, Rate: 20, Warmup: 200 * time.Millisecond, Duration: 300 * time.Millisecond})
		mu.Lock()
		got := append([]time.Time(nil), accepted...)
		mu.Unlock()
		if res.Connections != 8 || len(got) != 8 || res.Errors.Total != 0 || res.Requests != 6 {
			t.Fatalf("%v: %d connections (server %d), %d requests, errors %v: want 8 and the 6 due in 300 ms", engine, res.Connections, len(got), res.Requests, res.Errors)
		}
		for i, at := range got {
			if !at.Before(res.Started) {
				t.Errorf("%v: connection %d accepted %v after measuring began", engine, i+1, at.Sub(res.Started))
			}
		}
	}
}
