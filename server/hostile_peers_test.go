package server

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/httpvs/httpvs/transport"
)

// TestHostileSlowPeersEveryTransport fills the server's connection cap
// (hostileMaxConns on each TCP listener; as many QUIC connections, which
// it does not cap) with peers over each transport that never read a
// GET /bytes/10g, or send a POST /sink at 5 B/s: each is dropped at the
// minimum data rate's grace period, so a new client on the same
// listener, queued behind them, is served within about that plus a few
// seconds, and the good client beside them keeps its latency. h1's
// attacks are TestHostileNeverReaders and TestHostileSlowSenders.
func TestHostileSlowPeersEveryTransport(t *testing.T) {
	for _, p := range []transport.Protocol{transport.H2C, transport.H1TLS, transport.H2, transport.H3} {
		for _, sender := range []bool{false, true} {
			name := p.String() + "/never-readers"
			if sender {
				name = p.String() + "/slow-senders"
			}
			t.Run(name, func(t *testing.T) {
				runHostile(t, true, func(t *testing.T, a *attacked) (bool, string) {
					return slowPeers(t, a, p, sender)
				}, slowPeerEnv()...)
			})
		}
	}
}

// slowPeers opens the attackers over p, then a new client behind them,
// and says whether it was served within the grace period and a few
// seconds (for h3, whose connections queue behind no cap, whether the
// attackers were dropped within it).
func slowPeers(t *testing.T, a *attacked, p transport.Protocol, sender bool) (bool, string) {
	n := hostileMaxConns - 1 // the good client holds the cleartext listener's last slot
	if p.TLS() && p != transport.H3 {
		n = hostileMaxConns
	}
	stop := make(chan struct{})
	defer close(stop)
	what := "never-reading"
	if sender {
		what = "5 B/s uploading"
	}
	within := slowPeerGrace + 3*time.Second
	if p == transport.H3 {
		return h3SlowPeers(t, a, n, sender, stop, within, what)
	}
	for range n {
		c := peerConn(t, a, p)
		if p.Version() == 2 {
			h2Attack(t, c, sender, stop)
		} else {
			h1Attack(t, c, sender, stop)
		}
	}
	began := time.Now()
	a.inPlace = began
	c := peerConn(t, a, map[bool]transport.Protocol{false: transport.H1, true: transport.H1TLS}[p.TLS()])
	line, err := rawStatus(c, hostileDropWithin)
	took := time.Since(began)
	if err != nil || line != "HTTP/1.1 200 OK" {
		t.Fatalf("a new client behind %d %s %s peers: %q, %v after %v", n, what, p, line, err, took)
	}
	return took < within, fmt.Sprintf("%d %s %s connections; a new client served after %v (grace %v)",
		n, what, p, took.Round(time.Millisecond), slowPeerGrace)
}

// peerConn dials the server's listener for p with a 4 KiB receive buffer,
// over TLS with p's ALPN where p is encrypted.
func peerConn(t *testing.T, a *attacked, p transport.Protocol) net.Conn {
	t.Helper()
	addr := strings.TrimPrefix(a.Plain, "http://")
	if p.TLS() {
		addr = strings.TrimPrefix(a.TLS, "https://")
	}
	raw, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	raw.(*net.TCPConn).SetReadBuffer(4096)
	if !p.TLS() {
		return raw
	}
	proto := "http/1.1"
	if p.Version() == 2 {
		proto = "h2"
	}
	c := tls.Client(raw, &tls.Config{InsecureSkipVerify: true, NextProtos: []string{proto}})
	c.SetDeadline(time.Now().Add(hostileDropWithin))
	if err := c.Handshake(); err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Time{})
	return c
}

// h1Attack sends an HTTP/1.1 request on c that it never reads the answer
// of, or whose body it sends a byte every 200 ms until stop.
func h1Attack(t *testing.T, c net.Conn, sender bool, stop <-chan struct{}) {
	t.Helper()
	req := "GET /bytes/10g HTTP/1.1\r\nHost: x\r\n\r\n"
	if sender {
		req = "POST /sink HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n"
	}
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	if sender {
		go trickle(stop, func() error { _, err := c.Write([]byte{'x'}); return err })
	}
}

// h2Attack sends the HTTP/2 preface and one stream on c: a GET it never
// reads (nor anything else the server sends), or a POST whose body it
// sends a byte every 200 ms until stop.
func h2Attack(t *testing.T, c net.Conn, sender bool, stop <-chan struct{}) {
	t.Helper()
	if _, err := io.WriteString(c, http2.ClientPreface); err != nil {
		t.Fatal(err)
	}
	fr := http2.NewFramer(c, c)
	if err := fr.WriteSettings(); err != nil {
		t.Fatal(err)
	}
	path, extra := "/bytes/10g", []hpack.HeaderField(nil)
	if sender {
		path, extra = "/sink", []hpack.HeaderField{{Name: "content-length", Value: "100000"}}
	}
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	for _, f := range append([]hpack.HeaderField{{Name: ":method", Value: map[bool]string{false: "GET", true: "POST"}[sender]},
		{Name: ":scheme", Value: "http"}, {Name: ":authority", Value: "x"}, {Name: ":path", Value: path}}, extra...) {
		enc.WriteField(f)
	}
	block := buf.Bytes()
	if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block, EndStream: !sender, EndHeaders: true}); err != nil {
		t.Fatal(err)
	}
	if sender {
		go trickle(stop, func() error { return fr.WriteData(1, false, []byte{'x'}) })
	}
}

// trickle calls send every 200 ms until it fails, stop closes, or 40 s.
func trickle(stop <-chan struct{}, send func() error) {
	for range 200 {
		select {
		case <-stop:
			return
		case <-time.After(200 * time.Millisecond):
		}
		if send() != nil {
			return
		}
	}
}

// h3SlowPeers opens n QUIC connections, each with one request that never
// reads its GET /bytes/10g or sends its POST /sink at 5 B/s, and says
// whether each was dropped within within of the last one's start; a new
// h3 client must be served meanwhile.
func h3SlowPeers(t *testing.T, a *attacked, n int, sender bool, stop <-chan struct{}, within time.Duration, what string) (bool, string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ended := make(chan error, n)
	var bodies []io.ReadCloser
	for range n {
		c, err := transport.NewClient(transport.ClientOptions{Protocol: transport.H3, Insecure: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if sender {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, a.H3+"/sink", &trickleBody{stop: stop})
			req.ContentLength = 100000
			go func() {
				resp, err := c.HTTP().Do(req)
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err == nil && resp.StatusCode == http.StatusOK {
						err = errors.New("the slow upload was served")
					}
				}
				ended <- err
			}()
			continue
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.H3+"/bytes/10g", nil)
		resp, err := c.HTTP().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		bodies = append(bodies, resp.Body)
	}
	began := time.Now() // the last attacker's request sent, as for TCP's new client
	a.inPlace = began
	newClient(t, a)
	time.Sleep(time.Until(began.Add(within)))
	dropped := 0
	if sender {
		for range n {
			select {
			case <-ended:
				dropped++
			default:
			}
		}
	} else {
		// A dropped connection's body ends, after what was buffered, in
		// an error; one still open streams on until it is cancelled. All
		// are read at once, for a second.
		done := make(chan error, len(bodies))
		for _, b := range bodies {
			go func() { _, err := io.Copy(io.Discard, b); done <- err }()
		}
		deadline := time.After(time.Second)
	read:
		for range bodies {
			select {
			case err := <-done:
				if err != nil && ctx.Err() == nil {
					dropped++
				}
			case <-deadline:
				break read
			}
		}
	}
	cancel()
	return dropped == n, fmt.Sprintf("%d %s h3 connections; %d dropped within %v (grace %v)",
		n, what, dropped, within, slowPeerGrace)
}

// newClient fails the test unless a new h3 client gets GET /small from a
// within hostileDropWithin.
func newClient(t *testing.T, a *attacked) {
	t.Helper()
	c, err := transport.NewClient(transport.ClientOptions{Protocol: transport.H3, Insecure: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), hostileDropWithin)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.H3+"/small", nil)
	resp, err := c.HTTP().Do(req)
	if err != nil {
		t.Fatalf("a new h3 client beside the attackers: %v", err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("a new h3 client beside the attackers: %s", resp.Status)
	}
}

// trickleBody is a request body that yields a byte every 200 ms until stop.
type trickleBody struct{ stop <-chan struct{} }

func (b *trickleBody) Read(p []byte) (int, error) {
	select {
	case <-b.stop:
		return 0, io.EOF
	case <-time.After(200 * time.Millisecond):
	}
	p[0] = 'x'
	return 1, nil
}
