package transport

import (
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// floorGrace is the tests' grace period: short, so that they end soon.
const floorGrace = time.Second

// floorHandler serves /big, up to 10 GB written in 256 KiB chunks until
// a write fails, and /sink, which reads its body; each failure's error is
// counted in slow when it is ErrTooSlow and in other otherwise.
type floorHandler struct{ slow, other, failed atomic.Int64 }

func (f *floorHandler) record(err error) {
	f.failed.Add(1)
	if errors.Is(err, ErrTooSlow) {
		f.slow.Add(1)
	} else {
		f.other.Add(1)
	}
}

func (f *floorHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/big":
		chunk := make([]byte, 256<<10)
		for range 40_000 {
			if _, err := w.Write(chunk); err != nil {
				f.record(err)
				return
			}
		}
	case "/sink":
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			f.record(err)
		}
	default:
		io.WriteString(w, "ok")
	}
}

// h2cGetUnread opens an h2c connection, GETs path and never reads.
func h2cGetUnread(t *testing.T, addr, path string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	var block bytes.Buffer
	enc := hpack.NewEncoder(&block)
	for _, f := range [][2]string{{":method", "GET"}, {":scheme", "http"}, {":authority", addr}, {":path", path}} {
		enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	fr := http2.NewFramer(c, c)
	io.WriteString(c, http2.ClientPreface)
	if err := errors.Join(fr.WriteSettings(), fr.WriteWindowUpdate(0, 1<<30),
		fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block.Bytes(), EndStream: true, EndHeaders: true})); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestMinDataRateFreesMaxConns fills a server's MaxConns with peers that
// never read their responses (h1 and h2c): each is dropped once the
// grace period has passed, so a well-behaved client, queued behind them,
// is served; without the floor it would wait as long as they held on.
func TestMinDataRateFreesMaxConns(t *testing.T) {
	t.Parallel() // see TestMain
	h := &floorHandler{}
	s, err := NewServer(ServerOptions{Handler: h, Listen: "127.0.0.1:0", MaxConns: 4, MinDataRate: MinDataRate{Grace: floorGrace}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	addr := s.Addr(H1)
	for i := range 4 {
		var c net.Conn
		if i%2 == 0 {
			if c, err = net.Dial("tcp", addr); err == nil {
				_, err = io.WriteString(c, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
			}
			if err != nil {
				t.Fatal(err)
			}
		} else {
			c = h2cGetUnread(t, addr, "/big")
		}
		defer c.Close()
	}
	began := time.Now()
	client := &http.Client{Timeout: floorGrace + 10*time.Second}
	resp, err := client.Get(s.URL(H1) + "/small")
	if err != nil {
		t.Fatalf("a well-behaved client behind 4 peers that never read: %v after %v; writes failed: %d with ErrTooSlow, %d otherwise", err, time.Since(began), h.slow.Load(), h.other.Load())
	}
	resp.Body.Close()
	waitFor(t, 10*time.Second, func() bool { return h.failed.Load() == 4 })
	// h1's writes fail with ErrTooSlow itself; h2's stream sees its
	// connection closed under it.
	if h.slow.Load() < 2 {
		t.Fatalf("%d of the 4 writes failed with ErrTooSlow, want the 2 h1 ones at least", h.slow.Load())
	}
	t.Logf("served after %v (grace %v)", time.Since(began).Round(time.Millisecond), floorGrace)
}

// slowBody yields one byte every 100 ms (10 B/s, under the floor) until
// n bytes or stop.
type slowBody struct {
	n    int
	stop <-chan struct{}
}

func (b *slowBody) Read(p []byte) (int, error) {
	if b.n == 0 {
		return 0, io.EOF
	}
	select {
	case <-b.stop:
		return 0, errors.New("stopped")
	case <-time.After(100 * time.Millisecond):
	}
	b.n--
	p[0] = 'x'
	return 1, nil
}

// TestMinDataRateSlowSender uploads at 10 B/s over every transport: the
// handler's read fails with ErrTooSlow once the grace period has passed,
// and the client's request fails with it (its connection closed).
func TestMinDataRateSlowSender(t *testing.T) {
	t.Parallel() // see TestMain
	skipShort(t, "a 10 B/s upload past the grace")
	h := &floorHandler{}
	s, err := NewServer(ServerOptions{Handler: h, Listen: "127.0.0.1:0", TLSListen: "127.0.0.1:0", MinDataRate: MinDataRate{Grace: floorGrace}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cert, err := x509.ParseCertificate(s.Cert().Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	for i, p := range All {
		t.Run(p.String(), func(t *testing.T) {
			c, err := NewClient(ClientOptions{Protocol: p, RootCAs: roots})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			stop := make(chan struct{})
			defer close(stop)
			ctx, cancel := context.WithTimeout(context.Background(), floorGrace+15*time.Second)
			defer cancel()
			// 200 bytes at 10 B/s: 20 s if nothing stops it.
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL(p)+"/sink", &slowBody{n: 200, stop: stop})
			if err != nil {
				t.Fatal(err)
			}
			req.ContentLength = 200
			began := time.Now()
			resp, err := c.HTTP().Do(req)
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			took := time.Since(began)
			if ctx.Err() != nil {
				t.Fatalf("a 10 B/s upload was not dropped: %v after %v", err, took)
			}
			waitFor(t, 5*time.Second, func() bool { return h.slow.Load() == int64(i+1) })
			if h.other.Load() != 0 || took < floorGrace {
				t.Fatalf("after %v: %d reads failed with ErrTooSlow, %d otherwise; want the one with ErrTooSlow, after the grace", took, h.slow.Load(), h.other.Load())
			}
		})
	}
}

// waitFor polls cond every 10 ms until it holds, failing after d.
func waitFor(t *testing.T, d time.Duration, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(d); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("still not so after %v", d)
		}
	}
}

// TestMinDataRateStalledStreams GETs /big over h2 and h3 with a client
// that never reads the body: its stream's window closes, so the server's
// writes wait on flow control, not on the socket; the connection, which
// then sends nothing, is dropped once the grace period has passed.
func TestMinDataRateStalledStreams(t *testing.T) {
	t.Parallel() // see TestMain
	skipShort(t, "stalled streams past the grace")
	h := &floorHandler{}
	s := tlsFloorServer(t, h, MinDataRate{Grace: floorGrace})
	roots := CertPool(s.Cert())
	for i, p := range []Protocol{H2, H3} {
		t.Run(p.String(), func(t *testing.T) {
			c, err := NewClient(ClientOptions{Protocol: p, RootCAs: roots})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			resp, err := c.HTTP().Get(s.URL(p) + "/big")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			waitFor(t, floorGrace+10*time.Second, func() bool { return h.failed.Load() == int64(i+1) })
			if h.slow.Load() != int64(i+1) {
				t.Fatalf("the stalled write failed with another error than ErrTooSlow (%d of %d)", h.slow.Load(), h.failed.Load())
			}
		})
	}
}

// TestMinDataRateH3ReaderStays: an h3 client that reads /big steadily, far
// above the floor though in the pauses of its flow-control window, is not
// dropped: the floor counts the pieces its stream took. (A peer that
// never reads is, TestMinDataRateStalledStreams.)
func TestMinDataRateH3ReaderStays(t *testing.T) {
	t.Parallel() // see TestMain
	skipShort(t, "a reader that reads for 5 s")
	h := &floorHandler{}
	// A grace of 2 s, so that a loaded machine's slower reads still leave
	// the flow-control pauses well inside it.
	s := tlsFloorServer(t, h, MinDataRate{Grace: 2 * time.Second})
	c, err := NewClient(ClientOptions{Protocol: H3, RootCAs: CertPool(s.Cert())})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	resp, err := c.HTTP().Get(s.URL(H3) + "/big")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	// 4 MiB at about 800 KB/s (8 KiB each 10 ms): past the 512 KiB first
	// window, over more than twice the grace period.
	const want = 4 << 20
	buf := make([]byte, 8<<10)
	got := 0
	for got < want {
		n, err := io.ReadFull(resp.Body, buf)
		got += n
		if err != nil {
			t.Fatalf("read %d of %d bytes: %v (writes failed: %d with ErrTooSlow)", got, want, err, h.slow.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if h.slow.Load() != 0 {
		t.Fatalf("the reader was dropped as too slow after %d bytes", got)
	}
}

// tlsFloorServer starts h on a loopback TLS and QUIC listener under m,
// closed when tb ends.
func tlsFloorServer(tb testing.TB, h http.Handler, m MinDataRate) *Server {
	tb.Helper()
	s, err := NewServer(ServerOptions{Handler: h, TLSListen: "127.0.0.1:0", MinDataRate: m})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// skipShort skips, under -short, a floor test that waits out a grace
// period or reads for seconds: the full suite (go test ./transport, without
// -short) runs it.
func skipShort(t *testing.T, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("waits on %s: not under -short (go test ./transport runs it)", what)
	}
}
