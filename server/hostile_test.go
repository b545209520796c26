package server

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/httpvs/httpvs/transport"
)

// The hostile-client suite: each attack runs against a payload server in a
// child process while a well-behaved h2c client runs beside it. Each
// asserts that the server's peak RSS stays under hostileRSS, that the
// well-behaved client's every request succeeds, and that the attacker is
// dropped (or its bounded attack ends) within hostileDropWithin. The
// well-behaved client's rate beside the attack over its rate alone is
// logged; bench/hostile.sh holds it to 80% (HTTPVS_HOSTILE_MIN_RATIO):
// a ratio of rates is a speed, measured where the machine is quiet.

// hostileDropWithin bounds how long an attack may hold the server.
const hostileDropWithin = 10 * time.Second

// hostileRSS bounds the attacked server's peak RSS: about 30 MB at rest,
// several times that under the race detector's shadow memory.
func hostileRSS() int64 {
	if raceBuild {
		return 400 << 20
	}
	return 100 << 20
}

// goodClient makes h2c GET /small requests on its own connection until
// stop, counting successes and failures.
type goodClient struct {
	ok, failed atomic.Int64
	first      atomic.Pointer[error]
}

func (g *goodClient) run(t *testing.T, url string, stop <-chan struct{}) {
	t.Helper()
	c, err := transport.NewClient(transport.ClientOptions{Protocol: transport.H2C})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for {
		select {
		case <-stop:
			return
		default:
		}
		resp, err := c.HTTP().Get(url + "/small")
		if err == nil {
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if err == nil && resp.StatusCode != http.StatusOK {
				err = errors.New(resp.Status)
			}
		}
		if err != nil {
			g.failed.Add(1)
			g.first.CompareAndSwap(nil, &err)
			continue
		}
		g.ok.Add(1)
	}
}

// rateFor runs a good client alone for d and returns its rate.
func rateFor(t *testing.T, url string, d time.Duration) float64 {
	var g goodClient
	stop := make(chan struct{})
	time.AfterFunc(d, func() { close(stop) })
	g.run(t, url, stop)
	if g.failed.Load() > 0 {
		t.Fatalf("the good client failed alone: %v", *g.first.Load())
	}
	return float64(g.ok.Load()) / d.Seconds()
}

// attack is one hostile client: it runs against the server until it is
// dropped or its bounded attack ends, and says which.
type attack func(t *testing.T, a *attacked) (dropped bool, detail string)

// runHostile runs attack beside a good client and checks the server held.
func runHostile(t *testing.T, mustDrop bool, attack attack) {
	if testing.Short() {
		t.Skip("starts a server process and attacks it")
	}
	a := startAttacked(t)
	alone := rateFor(t, a.Plain, time.Second)
	var g goodClient
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { g.run(t, a.Plain, stop) })
	began := time.Now()
	dropped, detail := attack(t, a)
	took := time.Since(began)
	if floor := time.Second; took < floor {
		time.Sleep(floor - took) // the good client's rate over a second at least
	}
	close(stop)
	wg.Wait()
	beside := float64(g.ok.Load()) / time.Since(began).Seconds()
	rss := a.peakRSS(t)
	t.Logf("%s after %v; server peak RSS %.1f MB; good client %.0f req/s beside, %.0f alone (%.2fx), %d failed",
		detail, took.Round(time.Millisecond), float64(rss)/1e6, beside, alone, beside/alone, g.failed.Load())
	if g.failed.Load() > 0 || g.ok.Load() == 0 {
		t.Errorf("the good client: %d ok, %d failed (first: %v)", g.ok.Load(), g.failed.Load(), errOf(g.first.Load()))
	}
	if rss > hostileRSS() {
		t.Errorf("server peak RSS %.1f MB, want under %.0f MB", float64(rss)/1e6, float64(hostileRSS())/1e6)
	}
	if mustDrop && !dropped {
		t.Errorf("the attacker was not dropped: %s", detail)
	}
	if took > hostileDropWithin {
		t.Errorf("the attack held the server %v, want at most %v", took, hostileDropWithin)
	}
	if min := os.Getenv("HTTPVS_HOSTILE_MIN_RATIO"); min != "" {
		if want, err := strconv.ParseFloat(min, 64); err == nil && beside < want*alone {
			t.Errorf("the good client kept %.2fx of its rate alone, want at least %.2fx", beside/alone, want)
		}
	}
}

func errOf(p *error) error {
	if p == nil {
		return nil
	}
	return *p
}

// h2Conn is a raw HTTP/2 connection to the server's h2c port.
type h2Conn struct {
	net.Conn
	fr     *http2.Framer
	closed chan struct{} // closed when the server closes the connection
	frames atomic.Int64  // frames the server sent
}

// dialH2 opens a prior-knowledge h2c connection and sends the preface and
// SETTINGS; a goroutine reads the server's frames until it closes.
func dialH2(t *testing.T, a *attacked) *h2Conn {
	t.Helper()
	c := dialH2Unread(t, a)
	conn := c.Conn
	go func() {
		defer close(c.closed)
		rd := http2.NewFramer(io.Discard, conn)
		for {
			if _, err := rd.ReadFrame(); err != nil {
				var se http2.StreamError
				if errors.As(err, &se) {
					continue
				}
				return
			}
			c.frames.Add(1)
		}
	}()
	return c
}

// dialH2Unread is dialH2 without the reader: nothing the server sends is
// read, and the socket's receive buffer is made small, so that what the
// server writes backs up at once.
func dialH2Unread(t *testing.T, a *attacked) *h2Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(a.Plain, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.(*net.TCPConn).SetReadBuffer(4096)
	if _, err := io.WriteString(conn, http2.ClientPreface); err != nil {
		t.Fatal(err)
	}
	c := &h2Conn{Conn: conn, fr: http2.NewFramer(conn, conn), closed: make(chan struct{})}
	if err := c.fr.WriteSettings(); err != nil {
		t.Fatal(err)
	}
	return c
}

// isClosed says whether the server has closed the connection.
func (c *h2Conn) isClosed() bool {
	select {
	case <-c.closed:
		return true
	default:
		return false
	}
}

// waitClosed waits up to d for the server to close the connection.
func (c *h2Conn) waitClosed(d time.Duration) bool {
	select {
	case <-c.closed:
		return true
	case <-time.After(d):
		return false
	}
}

// headerBlock is an HPACK block of GET /small with extra header fields.
func headerBlock(host string, extra ...hpack.HeaderField) []byte {
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	for _, f := range append([]hpack.HeaderField{
		{Name: ":method", Value: "GET"}, {Name: ":scheme", Value: "http"},
		{Name: ":authority", Value: host}, {Name: ":path", Value: "/small"},
	}, extra...) {
		enc.WriteField(f)
	}
	return buf.Bytes()
}

// runFor repeats step, up to n times and for up to d, until it fails or
// the connection closes; it returns how many steps ran.
func (c *h2Conn) runFor(n int, d time.Duration, step func(i int) error) int {
	deadline := time.Now().Add(d)
	i := 0
	for ; i < n && time.Now().Before(deadline) && !c.isClosed(); i++ {
		if err := step(i); err != nil {
			break
		}
	}
	return i
}
