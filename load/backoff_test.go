package load

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/load/loadresult"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// closedAddr is a loopback address nothing listens on (a port just
// released).
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// Against a port that refuses connections every connection slot backs off
// between dials, whatever the engine and loop: at most backoff.Tries of
// the run's time per slot (80 in a second for 10 slots, where 14-45k were
// made), each counted as a refused request, never as throughput; and the
// run stops GoneAfter in, saying no server answered.
func TestRefusedDialsBackOff(t *testing.T) {
	t.Parallel() // see TestMain
	waits(t, "the runs' stop after refusals")
	addr := closedAddr(t)
	for _, c := range []struct {
		name   string
		engine Engine
		proto  transport.Protocol
		conns  int
		rate   float64
		count  int64
	}{
		{"fast h1 loop", Fast, transport.H1, 10, 0, 0},
		{"fast h1 loop by count", Fast, transport.H1, 10, 0, 1_000_000},
		{"fast h2c loop", Fast, transport.H2C, 10, 0, 0},
		{"fast h2 loop", Fast, transport.H2, 3, 0, 0},
		{"fast h1-tls", Fast, transport.H1TLS, 3, 0, 0},
		{"fast h1 open loop", Fast, transport.H1, 4, 100_000, 0},
		{"std h1", Std, transport.H1, 10, 0, 0},
		{"std h2c", Std, transport.H2C, 3, 0, 0},
		{"std h2", Std, transport.H2, 3, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Each slot waits out GoneAfter; the attempts are held to
			// the time the run took, whatever else runs beside it.
			t.Parallel()
			scheme := "http"
			if c.proto.TLS() {
				scheme = "https"
			}
			cfg := Config{URL: fmt.Sprintf("%s://%s/small", scheme, addr), Engine: c.engine, Conns: c.conns, Streams: 1,
				Client:   transport.ClientOptions{Protocol: c.proto, Insecure: true},
				Duration: 30 * time.Second, Rate: c.rate, Requests: c.count}
			start := time.Now()
			res := mustRun(t, cfg)
			took := time.Since(start)
			if took > goneAfter+5*time.Second {
				t.Errorf("ran %v against nothing", took)
			}
			most := int64(c.conns * dial.RedialTries(took))
			if res.Requests < int64(c.conns) || res.Requests > most {
				t.Errorf("%d attempts in %v over %d slots: want %d to %d (one each at least, dial.RedialTries(%v) = %d each at most)",
					res.Requests, took.Round(time.Millisecond), c.conns, c.conns, most, took.Round(time.Millisecond), dial.RedialTries(took))
			}
			if res.Errors.Total != res.Requests || res.Errors.Of(stats.ErrRefused) != res.Requests || res.Succeeded != 0 ||
				res.RequestsPerSecond != 0 || res.BytesReceived != 0 || res.Connections != 0 || res.Latency.Count != 0 {
				t.Errorf("errors %v of %d requests, %d succeeded at %v req/s, %d bytes, %d connections, %d latencies: want every attempt a refused request and nothing else",
					res.Errors, res.Requests, res.Succeeded, res.RequestsPerSecond, res.BytesReceived, res.Connections, res.Latency.Count)
			}
			if !strings.Contains(res.Stopped, "no server answered") || !strings.Contains(res.FirstError, addr) {
				t.Errorf("stopped %q, first error %q: want the run stopped as no server answered, and the error to name %s", res.Stopped, res.FirstError, addr)
			}
		})
	}
}

// countedNetwork is the process's own network that closes reached once
// after sockets have been made in it.
type countedNetwork struct {
	after   int64
	made    atomic.Int64
	reached chan struct{}
}

func (n *countedNetwork) Run(fn func() error) error {
	err := fn()
	if n.made.Add(1) == n.after {
		close(n.reached)
	}
	return err
}

// A server that comes up during the run is found within the backoff of
// the slots that were refused: they get responses, which end their
// backoff, and refusals happened only before it listened.
func TestBackoffEndsWhenServerComesUp(t *testing.T) {
	t.Parallel() // see TestMain
	waits(t, "2 s runs")
	for _, engine := range []Engine{Fast, Std} {
		t.Run(engine.String(), func(t *testing.T) {
			// A port of its own; the refusals are held to the time it
			// took to listen, whatever runs beside it.
			t.Parallel()
			addr := closedAddr(t)
			const conns = 4
			dials := &countedNetwork{after: 2 * conns, reached: make(chan struct{})}
			cfg := Config{URL: "http://" + addr + "/", Engine: engine, Conns: conns, Streams: 1,
				Client: transport.ClientOptions{Protocol: transport.H1, Network: dials}, Duration: 2 * time.Second}
			type outcome struct {
				res loadresult.Result
				err error
			}
			done := make(chan outcome, 1)
			start := time.Now()
			go func() {
				res, err := Run(context.Background(), cfg)
				done <- outcome{res, err}
			}()
			// Each slot dials one at a time: once 2*conns sockets were made,
			// at least conns dials ended, each refused, however late the
			// run's workers started.
			select {
			case <-dials.reached:
			case out := <-done:
				t.Fatalf("the run ended before %d dials: %+v %v", dials.after, out.res, out.err)
			}
			ln, err := net.Listen("tcp", addr)
			listening := time.Since(start)
			if err != nil {
				<-done
				t.Skipf("port %s taken meanwhile: %v", addr, err)
			}
			srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) })}
			go srv.Serve(ln)
			defer srv.Close()
			out := <-done
			if out.err != nil {
				t.Fatal(out.err)
			}
			res := out.res
			refused := res.Errors.Of(stats.ErrRefused)
			if most := int64(conns * dial.RedialTries(listening)); refused < conns || refused > most || refused != res.Errors.Total {
				t.Errorf("errors %v before the server listened at %v: want %d to %d refusals, nothing else",
					res.Errors, listening.Round(time.Millisecond), conns, most)
			}
			if res.Succeeded == 0 || res.Stopped != "" || res.Requests != res.Succeeded+refused {
				t.Errorf("%d requests, %d succeeded, stopped %q: want the run to go on with successes once the server listened",
					res.Requests, res.Succeeded, res.Stopped)
			}
		})
	}
}
