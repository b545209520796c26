package lean

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/lean/h1"
	"github.com/httpvs/httpvs/internal/testenv"
	"github.com/httpvs/httpvs/stats"

	"github.com/httpvs/httpvs/transport"
)

// loopTally counts what a Loop's callbacks saw.
type loopTally struct {
	limit             int64 // requests Next allows
	started, ended    int64
	ok, bytes         int64
	kinds             map[stats.ErrorKind]int64
	marksOut, marksIn int64 // marks Next gave and Done got back
	backwards         int64 // requests that ended before they started
	firstOutside      int64 // answered requests whose first byte is not within start..end
}

func (lt *loopTally) loop(streams int, timeout time.Duration) Loop {
	lt.kinds = map[stats.ErrorKind]int64{}
	return Loop{
		Streams: streams,
		Timeout: timeout,
		Next: func() (bool, bool) {
			if lt.started >= lt.limit {
				return false, false
			}
			lt.started++
			mark := lt.started%3 == 0
			if mark {
				lt.marksOut++
			}
			return mark, true
		},
		Done: func(mark bool, start, end time.Time, resp Response, err error) {
			lt.ended++
			if mark {
				lt.marksIn++
			}
			if end.Before(start) {
				lt.backwards++
			}
			if err != nil {
				lt.kinds[transport.Classify(err)]++
				return
			}
			if resp.FirstByte.Before(start) || resp.FirstByte.After(end) {
				lt.firstOutside++
			}
			if resp.Status == http.StatusOK {
				lt.ok++
				lt.bytes += resp.BodyBytes
			}
		},
	}
}

func leanLoopServer(t *testing.T, h http.HandlerFunc) *transport.Server {
	t.Helper()
	ts, err := transport.NewServer(transport.ServerOptions{Handler: h, Listen: "127.0.0.1:0", TLSListen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ts.Close() })
	return ts
}

func leanLoopClient(t *testing.T, ts *transport.Server, p transport.Protocol, path string) *Client {
	t.Helper()
	u, err := url.Parse(ts.URL(p) + path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewClient(transport.ClientOptions{Protocol: p, RootCAs: transport.CertPool(ts.Cert())}, Request{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// loopProtocols are the transports RunLoop runs on here.
// hostOf is raw's host:port.
func hostOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

func loopProtocols() []transport.Protocol {
	if h1.LoopSupported {
		return []transport.Protocol{transport.H1, transport.H2C, transport.H2}
	}
	return []transport.Protocol{transport.H2C, transport.H2}
}

// TestLeanLoopCounts runs an exact number of requests over every loop
// transport and checks every one is handed back once, with its body, on
// one HTTP/2 connection or one HTTP/1.1 connection per stream.
func TestLeanLoopCounts(t *testing.T) {
	var served atomic.Int64
	ts := leanLoopServer(t, func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		w.Write([]byte("hello"))
	})
	for _, p := range loopProtocols() {
		served.Store(0)
		c := leanLoopClient(t, ts, p, "/")
		lt := &loopTally{limit: 503}
		if err := c.RunLoop(context.Background(), lt.loop(7, 5*time.Second)); err != nil {
			t.Fatal(err)
		}
		if lt.started != 503 || lt.ended != 503 || lt.ok != 503 || lt.bytes != 503*5 || served.Load() != 503 {
			t.Fatalf("%s: started %d ended %d ok %d bytes %d served %d, want 503 each and %d bytes", p, lt.started, lt.ended, lt.ok, lt.bytes, served.Load(), 503*5)
		}
		wantConns := int64(1)
		if p == transport.H1 {
			wantConns = 7
		}
		if lt.firstOutside != 0 {
			t.Fatalf("%s: %d responses' first byte timed outside their request", p, lt.firstOutside)
		}
		if lt.backwards != 0 || lt.marksIn != lt.marksOut || lt.marksOut != 503/3 || c.Connections() != wantConns {
			t.Fatalf("%s: %d requests ended before they started; marks out %d in %d; %d connections, want %d", p, lt.backwards, lt.marksOut, lt.marksIn, c.Connections(), wantConns)
		}
	}
}

// TestLeanLoopTimeoutsAndResets: requests the server never answers time
// out and are reset; requests the server resets count as resets; the loop
// goes on with the others.
func TestLeanLoopTimeoutsAndResets(t *testing.T) {
	var n, canceled atomic.Int64
	ts := leanLoopServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) % 10 {
		case 3: // never answered: the client must give up and reset
			select {
			case <-r.Context().Done():
				canceled.Add(1)
			case <-time.After(10 * time.Second):
			}
			return
		case 6:
			panic(http.ErrAbortHandler) // RST_STREAM, or a closed HTTP/1.1 connection
		}
		w.Write([]byte("ok"))
	})
	for _, p := range loopProtocols() {
		n.Store(0)
		canceled.Store(0)
		c := leanLoopClient(t, ts, p, "/")
		lt := &loopTally{limit: 100}
		start := time.Now()
		if err := c.RunLoop(context.Background(), lt.loop(10, 300*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: 100 requests with 300ms timeouts took %v", p, d)
		}
		if lt.ended != 100 || lt.ok != 80 || lt.kinds[stats.ErrTimeout] != 10 || lt.kinds[stats.ErrReset] != 10 {
			t.Fatalf("%s: ended %d ok %d errors %v, want 100, 80, 10 timeouts and 10 resets", p, lt.ended, lt.ok, lt.kinds)
		}
		deadline := time.Now().Add(5 * time.Second)
		for canceled.Load() < 10 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if canceled.Load() != 10 {
			t.Errorf("%s: the server saw %d of 10 timed-out requests canceled", p, canceled.Load())
		}
	}
}

// TestLeanLoopCanceled: ending the context mid-run ends the loop, and
// every request Next allowed is still handed to Done exactly once.
func TestLeanLoopCanceled(t *testing.T) {
	ts := leanLoopServer(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/slow") {
			time.Sleep(20 * time.Millisecond)
		}
		w.Write([]byte("ok"))
	})
	for _, p := range loopProtocols() {
		c := leanLoopClient(t, ts, p, "/slow")
		lt := &loopTally{limit: 1 << 40}
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		start := time.Now()
		err := c.RunLoop(ctx, lt.loop(5, 5*time.Second))
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s: RunLoop returned %v after its context ended", p, d)
		}
		if lt.started == 0 || lt.started != lt.ended || lt.ok == 0 {
			t.Fatalf("%s: started %d ended %d ok %d: every started request must end once", p, lt.started, lt.ended, lt.ok)
		}
	}
}

// TestLeanLoopSharesOneP: with HoldP the h1 loop waits in epoll holding
// its P, so with a single P it must still let the rest of the process run -
// here the server answering it, the case HoldP is not meant for. Every
// request completes and RunLoop returns, with and without HoldP.
func TestLeanLoopSharesOneP(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	ts := leanLoopServer(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	for _, p := range loopProtocols() {
		for _, hold := range []bool{false, true} {
			c := leanLoopClient(t, ts, p, "/")
			lt := &loopTally{limit: 200}
			l := lt.loop(3, 5*time.Second)
			l.HoldP = hold
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			err := c.RunLoop(ctx, l)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if lt.ended != 200 || lt.ok != 200 {
				t.Fatalf("%s on one P (HoldP %v): ended %d ok %d errors %v, want 200 answered", p, hold, lt.ended, lt.ok, lt.kinds)
			}
		}
	}
}

// TestLeanH1LoopSplitResponses: responses whose head and chunk-size
// lines arrive in pieces, split where the parser must keep bytes for the
// next read, are read whole on every connection.
func TestLeanH1LoopSplitResponses(t *testing.T) {
	if !h1.LoopSupported {
		t.Skip("no h1 event loop on this system")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	pieces := [][]string{
		{"HTTP/1.1 200 OK\r\nConte", "nt-Length: 5\r\n\r\nhel", "lo"},
		{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0", "0c\r\nhello, ", "world\r\n0\r", "\n\r\n"},
	}
	go func() {
		for i := 0; ; i++ {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func(resp []string) {
				defer conn.Close()
				br := bufio.NewReader(conn)
				for {
					for { // the request head; GETs have no body
						line, err := br.ReadString('\n')
						if err != nil {
							return
						}
						if line == "\r\n" {
							break
						}
					}
					for _, piece := range resp {
						if _, err := io.WriteString(conn, piece); err != nil {
							return
						}
						time.Sleep(time.Millisecond)
					}
				}
			}(pieces[i%2])
		}
	}()
	u, _ := url.Parse("http://" + ln.Addr().String() + "/")
	c, err := NewClient(transport.ClientOptions{Protocol: transport.H1}, Request{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	lt := &loopTally{limit: 40}
	if err := c.RunLoop(context.Background(), lt.loop(2, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
	// Two connections, one answering 5-byte bodies, one 12-byte chunked ones.
	if lt.ended != 40 || lt.ok != 40 || lt.bytes < 40*5 || lt.bytes > 40*12 || c.Connections() != 2 {
		t.Fatalf("ended %d ok %d bytes %d connections %d, errors %v", lt.ended, lt.ok, lt.bytes, c.Connections(), lt.kinds)
	}
	if (lt.bytes-40*5)%7 != 0 {
		t.Fatalf("%d body bytes is no mix of 5- and 12-byte bodies", lt.bytes)
	}
}

// TestLeanLoopRedials: a server that is gone fails each dial as a request;
// Next's allowance is used up by the failures and RunLoop returns after
// the redials' backoff (8 dials on one HTTP/2 slot: 5+10+...+640 ms), not
// a sweep of the request timeout (Timeout/8) per dial.
func TestLeanLoopRedials(t *testing.T) {
	ts := leanLoopServer(t, func(w http.ResponseWriter, r *http.Request) {})
	clients := map[transport.Protocol]*Client{}
	for _, p := range loopProtocols() {
		clients[p] = leanLoopClient(t, ts, p, "/")
	}
	plain, tls := hostOf(t, ts.URL(transport.H1)), hostOf(t, ts.URL(transport.H2))
	ts.Close()
	testenv.HoldPorts(t, plain, tls)
	for p, c := range clients {
		lt := &loopTally{limit: 8}
		start := time.Now()
		if err := c.RunLoop(context.Background(), lt.loop(4, 30*time.Second)); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s: 8 refused dials took %v", p, d)
		}
		if lt.ended != 8 || lt.kinds[stats.ErrRefused] != 8 {
			t.Fatalf("%s: ended %d, errors %v: want 8 refused", p, lt.ended, lt.kinds)
		}
		if err := c.RunLoop(context.Background(), Loop{}); err == nil {
			t.Fatalf("%s: RunLoop took an empty Loop", p)
		}
	}
}

// TestLeanH2LongHeaderBlock: a response whose header block spans HEADERS
// and CONTINUATION frames (the client allows 16 KiB frames) still gives
// its status, and trailers do not replace it.
func TestLeanH2LongHeaderBlock(t *testing.T) {
	long := strings.Repeat("v", 40<<10)
	ts := leanLoopServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Trailer", "X-Trailer")
		w.Header().Set("X-Long", long)
		w.WriteHeader(http.StatusAccepted)
		w.Write([]byte("body"))
		w.Header().Set("X-Trailer", "t")
	})
	u, err := url.Parse(ts.URL(transport.H2C) + "/")
	if err != nil {
		t.Fatal(err)
	}
	opts := transport.ClientOptions{Protocol: transport.H2C}
	opts.Config.HTTP2.MaxReadFrameSize = 16 << 10
	c, err := NewClient(opts, Request{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var got []Response
	n := 0
	err = c.RunLoop(context.Background(), Loop{
		Streams: 2, Timeout: 5 * time.Second,
		Next: func() (bool, bool) { n++; return false, n <= 5 },
		Done: func(_ bool, _, _ time.Time, resp Response, err error) {
			if err != nil {
				t.Errorf("request failed: %v", err)
			}
			got = append(got, resp)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 {
		t.Fatalf("%d responses, want 5", len(got))
	}
	for _, r := range got {
		if r.Status != http.StatusAccepted || r.BodyBytes != 4 {
			t.Fatalf("response %+v, want status 202 and 4 body bytes", r)
		}
	}
}
