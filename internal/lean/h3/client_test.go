package h3

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/lean/internal/target"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// h3Tally counts what a run of HTTP/3 streams saw.
type h3Tally struct {
	mu       sync.Mutex
	ended    int64
	ok       int64 // 2xx without error
	bytes    int64 // their body bytes
	statuses map[int]int64
	kinds    map[stats.ErrorKind]int64
	noFirst  int64 // answered requests with no first-byte time
}

// runH3 sends n requests over c from streams goroutines, each request
// bounded by timeout, and returns what they got.
func runH3(ctx context.Context, c *Client, streams int, n int64, timeout time.Duration) *h3Tally {
	tally := &h3Tally{statuses: map[int]int64{}, kinds: map[stats.ErrorKind]int64{}}
	var left atomic.Int64
	left.Store(n)
	var wg sync.WaitGroup
	for range streams {
		wg.Go(func() {
			s := c.NewStream(ctx)
			for ctx.Err() == nil && left.Add(-1) >= 0 {
				resp, err := s.Do(timeout)
				tally.mu.Lock()
				tally.ended++
				switch {
				case err != nil:
					tally.kinds[transport.Classify(err)]++
				case resp.Status/100 == 2:
					tally.ok++
					tally.bytes += resp.BodyBytes
				default:
					tally.statuses[resp.Status]++
				}
				if err == nil && resp.FirstByte.IsZero() {
					tally.noFirst++
				}
				tally.mu.Unlock()
			}
		})
	}
	wg.Wait()
	return tally
}

// testServer is a transport.Server of h on loopback, h3 included, closed
// when the test ends.
func testServer(t *testing.T, h http.HandlerFunc) *transport.Server {
	t.Helper()
	ts, err := transport.NewServer(transport.ServerOptions{Handler: h, Listen: "127.0.0.1:0", TLSListen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ts.Close() })
	return ts
}

// h3Client is a lean HTTP/3 client of ts for path, with req's method and
// body, closed when the test ends.
func h3Client(t *testing.T, ts *transport.Server, path string, req target.Request, cfg config.Client) *Client {
	t.Helper()
	u, err := url.Parse(ts.URL(transport.H3) + path)
	if err != nil {
		t.Fatal(err)
	}
	req.URL = u
	tg, err := target.New(transport.ClientOptions{Protocol: transport.H3, RootCAs: transport.CertPool(ts.Cert()), Config: cfg}, req)
	if err != nil {
		t.Fatal(err)
	}
	c := NewClient(tg, cfg)
	t.Cleanup(func() { c.Close() })
	return c
}

// TestLeanH3Counts: an exact number of GETs and of POSTs with a body over
// one QUIC connection each, every one answered once, every byte counted
// at both ends.
func TestLeanH3Counts(t *testing.T) {
	var served, uploaded atomic.Int64
	ts := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		if r.Method == http.MethodPost {
			n, _ := io.Copy(w, r.Body) // echo
			uploaded.Add(n)
			return
		}
		w.Write([]byte("hello"))
	})
	c := h3Client(t, ts, "/", target.Request{}, config.Client{})
	got := runH3(context.Background(), c, 7, 503, 5*time.Second)
	if got.ended != 503 || got.ok != 503 || got.bytes != 503*5 || served.Load() != 503 || got.noFirst != 0 {
		t.Fatalf("GET: ended %d ok %d bytes %d served %d (errors %v, statuses %v, %d without a first byte); want 503, 503, %d, 503",
			got.ended, got.ok, got.bytes, served.Load(), got.kinds, got.statuses, got.noFirst, 503*5)
	}
	if c.t.Conns() != 1 {
		t.Fatalf("GET: %d connections, want 1", c.t.Conns())
	}

	served.Store(0)
	body := []byte(strings.Repeat("0123456789", 3900))
	c = h3Client(t, ts, "/", target.Request{Method: http.MethodPost, Body: body}, config.Client{})
	got = runH3(context.Background(), c, 3, 101, 5*time.Second)
	if got.ok != 101 || got.bytes != 101*39000 || uploaded.Load() != 101*39000 || served.Load() != 101 || c.t.Conns() != 1 {
		t.Fatalf("POST: ok %d bytes %d uploaded %d served %d connections %d (errors %v); want 101, %d each way, 101, 1",
			got.ok, got.bytes, uploaded.Load(), served.Load(), c.t.Conns(), got.kinds, 101*39000)
	}

}

// failingHandler answers /short with a body short of its Content-Length
// and /missing with 404; elsewhere, of each ten requests, it never answers
// one (counting in canceled those the client cancels) and resets one.
func failingHandler(canceled *atomic.Int64) http.HandlerFunc {
	var n atomic.Int64
	return func(w http.ResponseWriter, r *http.Request) {
		switch i := n.Add(1) % 10; {
		case strings.HasSuffix(r.URL.Path, "/short"):
			w.Header().Set("Content-Length", "10")
			w.Write([]byte("abc"))
		case strings.HasSuffix(r.URL.Path, "/missing"):
			http.NotFound(w, r)
		case i == 3: // never answered: the client must give up and cancel
			select {
			case <-r.Context().Done():
				canceled.Add(1)
			case <-time.After(10 * time.Second):
			}
		case i == 6:
			panic(http.ErrAbortHandler) // the stream is reset
		default:
			w.Write([]byte("ok"))
		}
	}
}

// TestLeanH3Failures: statuses are handed back as they came; requests the
// server resets, never answers, or cuts short fail by kind, the stream
// that timed out is cancelled at the server, and the others go on.
func TestLeanH3Failures(t *testing.T) {
	var canceled atomic.Int64
	ts := testServer(t, failingHandler(&canceled))
	c := h3Client(t, ts, "/", target.Request{}, config.Client{})
	start := time.Now()
	got := runH3(context.Background(), c, 10, 100, 300*time.Millisecond)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("100 requests with 300ms timeouts took %v", d)
	}
	if got.ended != 100 || got.ok != 80 || got.bytes != 160 || got.kinds[stats.ErrTimeout] != 10 || got.kinds[stats.ErrReset] != 10 {
		t.Fatalf("ended %d ok %d bytes %d errors %v, want 100, 80, 160, 10 timeouts and 10 resets", got.ended, got.ok, got.bytes, got.kinds)
	}
	deadline := time.Now().Add(5 * time.Second)
	for canceled.Load() < 10 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if canceled.Load() != 10 {
		t.Errorf("the server saw %d of 10 timed-out requests cancelled", canceled.Load())
	}
	if c.t.Conns() != 1 {
		t.Errorf("%d connections: stream failures closed the connection", c.t.Conns())
	}

	missing := runH3(context.Background(), h3Client(t, ts, "/missing", target.Request{}, config.Client{}), 2, 6, 5*time.Second)
	if missing.statuses[http.StatusNotFound] != 6 || missing.ok != 0 || len(missing.kinds) != 0 {
		t.Fatalf("404s: statuses %v ok %d errors %v, want six 404s", missing.statuses, missing.ok, missing.kinds)
	}
	short := runH3(context.Background(), h3Client(t, ts, "/short", target.Request{}, config.Client{}), 2, 6, 5*time.Second)
	if short.ok != 0 || short.kinds[stats.ErrShort]+short.kinds[stats.ErrReset] != 6 {
		t.Fatalf("bodies short of their Content-Length: ok %d errors %v, want 6 short or reset", short.ok, short.kinds)
	}
}

// TestLeanH3ServerGone: with no server, every request fails as a timeout
// (UDP has no refusal) within the dial timeout, and none hangs.
func TestLeanH3ServerGone(t *testing.T) {
	ts := testServer(t, func(w http.ResponseWriter, r *http.Request) {})
	c := h3Client(t, ts, "/", target.Request{}, config.Client{DialTimeout: 200 * time.Millisecond})
	ts.Close()
	start := time.Now()
	got := runH3(context.Background(), c, 2, 6, 5*time.Second)
	if got.ended != 6 || got.kinds[stats.ErrTimeout] != 6 {
		t.Fatalf("ended %d errors %v, want 6 timeouts", got.ended, got.kinds)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("6 requests to no server took %v", d)
	}
}

// TestLeanH3Canceled: ending the context ends the requests in flight at
// once, as failures, and every started request ends exactly once.
func TestLeanH3Canceled(t *testing.T) {
	ts := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/slow") {
			select {
			case <-time.After(20 * time.Millisecond):
			case <-r.Context().Done():
			}
		}
		w.Write([]byte("ok"))
	})
	c := h3Client(t, ts, "/slow", target.Request{}, config.Client{})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	got := runH3(ctx, c, 5, 1<<40, 5*time.Second)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the streams returned %v after their context ended", d)
	}
	if got.ok == 0 || got.ok+got.kinds[stats.ErrOther]+got.kinds[stats.ErrTimeout] != got.ended {
		t.Fatalf("ended %d ok %d errors %v: want answers, then the context's failures", got.ended, got.ok, got.kinds)
	}
}

// TestLeanH3StreamLimit: the probe reads how many streams the server lets
// a connection open at once; and asked for more, requests wait for a
// stream rather than fail.
func TestLeanH3StreamLimit(t *testing.T) {
	opts := transport.ServerOptions{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(time.Millisecond)
			w.Write([]byte("ok"))
		}),
		TLSListen: "127.0.0.1:0",
	}
	opts.Config.QUIC.MaxIncomingStreams = 3
	ts, err := transport.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	limit, announced, err := h3Client(t, ts, "/", target.Request{}, config.Client{}).ProbeMaxStreams(context.Background())
	if err != nil || !announced || limit != 3 {
		t.Fatalf("probe: limit %d announced %v error %v, want 3", limit, announced, err)
	}
	c := h3Client(t, ts, "/", target.Request{}, config.Client{})
	if got := runH3(context.Background(), c, 9, 90, 5*time.Second); got.ok != 90 || c.t.Conns() != 1 {
		t.Fatalf("9 streams against 3 allowed: ok %d connections %d errors %v", got.ok, c.t.Conns(), got.kinds)
	}
}
