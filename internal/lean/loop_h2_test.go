package lean

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// TestLeanH2LoopSharesConns: one loop drives several HTTP/2 connections
// (as one h2load thread does) and hands back every request once, each
// with the body of its own stream: bodies differ in length from request
// to request, some far larger than the loop's read buffer (frames up to
// the 1 MiB the client allows), and the bytes the client counted must be
// the bytes the server wrote.
func TestLeanH2LoopSharesConns(t *testing.T) {
	var served, wrote atomic.Int64
	big := make([]byte, 300<<10)
	ts := leanLoopServer(t, func(w http.ResponseWriter, r *http.Request) {
		n := served.Add(1)
		size := int(n%17) + 1
		if n%50 == 0 {
			size = len(big) - int(n)
		}
		w.Header().Set("Content-Length", strconv.Itoa(size))
		w.Write(big[:size])
		wrote.Add(int64(size))
	})
	for _, p := range []transport.Protocol{transport.H2C, transport.H2} {
		served.Store(0)
		wrote.Store(0)
		c := leanLoopClient(t, ts, p, "/")
		if !c.CanShareLoop() {
			t.Skip("one loop drives one HTTP/2 connection on this system")
		}
		lt := &loopTally{limit: 1001}
		l := lt.loop(7, 5*time.Second)
		l.Conns = 3
		if err := c.RunLoop(context.Background(), l); err != nil {
			t.Fatal(err)
		}
		if lt.started != 1001 || lt.ended != 1001 || lt.ok != 1001 || served.Load() != 1001 {
			t.Fatalf("%s: started %d ended %d ok %d served %d, errors %v; want 1001 each", p, lt.started, lt.ended, lt.ok, served.Load(), lt.kinds)
		}
		if lt.bytes != wrote.Load() || c.Connections() != 3 || lt.marksIn != lt.marksOut || lt.firstOutside != 0 {
			t.Fatalf("%s: %d body bytes read, %d written; %d connections, want 3; marks out %d in %d; %d first bytes out of their request",
				p, lt.bytes, wrote.Load(), c.Connections(), lt.marksOut, lt.marksIn, lt.firstOutside)
		}
	}
}

// TestLeanH2GoroutineLoop: the loop that reads its one connection from a
// goroutine (other systems' HTTP/2 loop) still counts exactly, and
// refuses to drive several connections.
func TestLeanH2GoroutineLoop(t *testing.T) {
	defer func(was bool) { pollH2 = was }(pollH2)
	pollH2 = false
	ts := leanLoopServer(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("hello")) })
	for _, p := range []transport.Protocol{transport.H2C, transport.H2} {
		c := leanLoopClient(t, ts, p, "/")
		lt := &loopTally{limit: 503}
		if err := c.RunLoop(context.Background(), lt.loop(7, 5*time.Second)); err != nil {
			t.Fatal(err)
		}
		if lt.ended != 503 || lt.ok != 503 || lt.bytes != 503*5 || c.Connections() != 1 {
			t.Fatalf("%s: ended %d ok %d bytes %d connections %d, want 503, 503, %d, 1", p, lt.ended, lt.ok, lt.bytes, c.Connections(), 503*5)
		}
		l := lt.loop(7, 5*time.Second)
		l.Conns = 2
		if c.CanShareLoop() || c.RunLoop(context.Background(), l) == nil {
			t.Fatalf("%s: the goroutine loop took two connections", p)
		}
	}
}
