package transport

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

var okHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })

// rawGet sends an HTTP/1.1 GET on conn and reads the status line, giving
// up after wait.
func rawGet(conn net.Conn, wait time.Duration) (string, error) {
	conn.SetDeadline(time.Now().Add(wait))
	if _, err := io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		return "", err
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	return strings.TrimSpace(line), err
}

func TestMaxConnsQueuesTheRest(t *testing.T) {
	s, err := NewServer(ServerOptions{Handler: okHandler, Listen: "127.0.0.1:0", MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var conns []net.Conn
	for i := 0; i < 3; i++ {
		c, err := net.Dial("tcp", s.Addr(H1))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	for i := 0; i < 2; i++ {
		if line, err := rawGet(conns[i], 5*time.Second); err != nil || line != "HTTP/1.1 200 OK" {
			t.Fatalf("connection %d: %q, %v", i, line, err)
		}
	}
	// The third waits in the accept queue...
	if line, err := rawGet(conns[2], 300*time.Millisecond); err == nil {
		t.Fatalf("third connection served at once (%q) despite MaxConns 2", line)
	}
	// ...until one of the first two closes.
	conns[0].Close()
	conns[2].SetDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(conns[2]).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "HTTP/1.1 200 OK" {
		t.Fatalf("third connection after a close: %q, %v", line, err)
	}
}

// TestRapidResetLeavesOthersServed floods one h2c connection with
// HEADERS+RST_STREAM pairs (CVE-2023-44487) while another client keeps
// requesting: every one of its requests is answered, and the server still
// serves afterwards.
func TestRapidResetLeavesOthersServed(t *testing.T) {
	s, err := NewServer(ServerOptions{Handler: okHandler, Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	attacker, err := net.Dial("tcp", s.Addr(H2C))
	if err != nil {
		t.Fatal(err)
	}
	defer attacker.Close()

	var wg sync.WaitGroup
	wg.Add(1)
	sent := 0
	go func() {
		defer wg.Done()
		io.WriteString(attacker, http2.ClientPreface)
		fr := http2.NewFramer(attacker, attacker)
		fr.WriteSettings()
		go io.Copy(io.Discard, attacker) // the server's frames, GOAWAY included
		var block bytes.Buffer
		enc := hpack.NewEncoder(&block)
		for _, f := range []hpack.HeaderField{{Name: ":method", Value: "GET"}, {Name: ":scheme", Value: "http"}, {Name: ":authority", Value: "x"}, {Name: ":path", Value: "/"}} {
			enc.WriteField(f)
		}
		attacker.SetWriteDeadline(time.Now().Add(10 * time.Second))
		for id := uint32(1); id < 2*20000; id += 2 {
			if fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: block.Bytes(), EndStream: true, EndHeaders: true}) != nil ||
				fr.WriteRSTStream(id, http2.ErrCodeCancel) != nil {
				return // the server hung up on the flood: fine
			}
			sent++
		}
	}()

	c, err := NewClient(ClientOptions{Protocol: H2C})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	get := func() error {
		req, _ := http.NewRequest("GET", s.URL(H2C)+"/", nil)
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err == nil && string(b) != "ok" {
			t.Errorf("body %q", b)
		}
		return err
	}
	deadline := time.Now().Add(20 * time.Second)
	for i := 0; i < 50; i++ {
		if err := get(); err != nil {
			t.Fatalf("request %d during the flood: %v", i, err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("50 requests took over 20 s during the flood")
		}
	}
	wg.Wait()
	if err := get(); err != nil {
		t.Fatalf("after the flood: %v", err)
	}
	t.Logf("attacker sent %d HEADERS+RST_STREAM pairs before the server stopped it or the flood ended", sent)
}

// TestPrefaceOnlyConnectionClosed: an h2c connection that sends its preface
// and SETTINGS and then nothing is closed at the read-header timeout, as an
// HTTP/1.1 connection that sends nothing is, not held for the idle timeout;
// one that sends a request in time is served and stays open past it.
func TestPrefaceOnlyConnectionClosed(t *testing.T) {
	const timeout = 300 * time.Millisecond
	s, err := NewServer(ServerOptions{Handler: okHandler, Listen: "127.0.0.1:0", ReadHeaderTimeout: timeout, IdleTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	dial := func() (net.Conn, *http2.Framer) {
		c, err := net.Dial("tcp", s.Addr(H2C))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if _, err := io.WriteString(c, http2.ClientPreface); err != nil {
			t.Fatal(err)
		}
		fr := http2.NewFramer(c, c)
		if err := fr.WriteSettings(); err != nil {
			t.Fatal(err)
		}
		return c, fr
	}
	// readUntilClosed reads frames until the server closes, returning how
	// long that took and whether a response's HEADERS came first.
	readUntilClosed := func(c net.Conn, fr *http2.Framer, wait time.Duration) (time.Duration, bool, error) {
		start := time.Now()
		c.SetReadDeadline(start.Add(wait))
		answered := false
		for {
			f, err := fr.ReadFrame()
			if err != nil {
				return time.Since(start), answered, err
			}
			if _, ok := f.(*http2.HeadersFrame); ok {
				answered = true
			}
		}
	}
	idle, fr := dial()
	took, _, err := readUntilClosed(idle, fr, 10*time.Second)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("preface-only connection still open after %v (read-header timeout %v)", took, timeout)
	}

	busy, fr := dial()
	var hb bytes.Buffer
	enc := hpack.NewEncoder(&hb)
	for _, f := range [][2]string{{":method", "GET"}, {":scheme", "http"}, {":authority", "x"}, {":path", "/"}} {
		enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: hb.Bytes(), EndStream: true, EndHeaders: true}); err != nil {
		t.Fatal(err)
	}
	took, answered, err := readUntilClosed(busy, fr, 3*timeout)
	if !answered {
		t.Fatalf("request not answered: %v", err)
	}
	if ne, ok := err.(net.Error); !ok || !ne.Timeout() {
		t.Fatalf("served connection closed after %v (%v); only the idle timeout may close it", took, err)
	}
}
