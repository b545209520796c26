package transport

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/stats"
)

// TestBlockingSocketsExactBytes downloads bodies of many sizes, with
// Content-Length and chunked, several on one connection, over every TCP
// transport with BlockingSockets, and checks each byte and that the
// connection was reused.
func TestBlockingSocketsExactBytes(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		if r.URL.Query().Get("chunked") == "" {
			w.Header().Set("Content-Length", strconv.Itoa(n))
		}
		w.Write(pattern(n))
	})
	s, err := NewServer(ServerOptions{Handler: h, Listen: "127.0.0.1:0", TLSListen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, p := range []Protocol{H1, H2C, H1TLS, H2} {
		t.Run(p.String(), func(t *testing.T) {
			c, err := NewClient(ClientOptions{Protocol: p, RootCAs: CertPool(s.Cert()), BlockingSockets: true})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			for _, n := range []int{0, 1, 4095, 4096, 4097, 100_000, 3 << 20} {
				for _, chunked := range []string{"", "1"} {
					url := fmt.Sprintf("%s/?n=%d&chunked=%s", s.URL(p), n, chunked)
					resp, err := c.HTTP().Get(url)
					if err != nil {
						t.Fatalf("GET %s: %v", url, err)
					}
					body, err := io.ReadAll(resp.Body)
					resp.Body.Close()
					if err != nil || !bytes.Equal(body, pattern(n)) {
						t.Fatalf("GET %s: %d bytes, err %v; want the %d-byte pattern", url, len(body), err, n)
					}
				}
			}
			if got := c.Counters().Connections; got != 1 {
				t.Fatalf("%d connections, want 1 reused for every request", got)
			}
		})
	}
}

func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + i%26)
	}
	return b
}

// blockingPair returns a blocking client end and the server's end of a
// loopback TCP connection.
func blockingPair(t *testing.T) (*blockingConn, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	peer, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { peer.Close() })
	c, err := blocking(raw, new(waitCounter))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	bc, ok := c.(*blockingConn)
	if !ok {
		t.Fatalf("blocking gave %T", c)
	}
	if bc.RemoteAddr().String() != ln.Addr().String() || bc.LocalAddr().String() != peer.RemoteAddr().String() {
		t.Fatalf("addresses %v -> %v, want %v -> %v", bc.LocalAddr(), bc.RemoteAddr(), peer.RemoteAddr(), ln.Addr())
	}
	return bc, peer
}

func TestBlockingConnReadWriteEOF(t *testing.T) {
	c, peer := blockingPair(t)
	go func() {
		peer.Write([]byte("hello"))
		time.Sleep(50 * time.Millisecond) // past any polls: the reader sleeps in the kernel
		peer.Write([]byte(" world"))
		peer.(*net.TCPConn).CloseWrite()
	}()
	got, err := io.ReadAll(c)
	if err != nil || string(got) != "hello world" {
		t.Fatalf("read %q, %v", got, err)
	}
	if _, err := c.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	if err := c.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	got, err = io.ReadAll(peer)
	if err != nil || string(got) != "ping" {
		t.Fatalf("peer read %q, %v", got, err)
	}
}

func TestBlockingConnCloseWakesRead(t *testing.T) {
	c, _ := blockingPair(t)
	done := make(chan error, 1)
	go func() {
		_, err := c.Read(make([]byte, 10))
		done <- err
	}()
	time.Sleep(50 * time.Millisecond) // the Read is asleep in recv
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, net.ErrClosed) {
			t.Fatalf("Read after Close: %v, want net.ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not wake the blocked Read")
	}
	if _, err := c.Write([]byte("x")); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Write after Close: %v", err)
	}
	if err := c.Close(); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("second Close: %v", err)
	}
}

func TestBlockingConnReadDeadline(t *testing.T) {
	c, peer := blockingPair(t)
	c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	start := time.Now()
	_, err := c.Read(make([]byte, 10))
	var ne net.Error
	if !errors.Is(err, os.ErrDeadlineExceeded) || !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("Read past the deadline: %v, want a timeout", err)
	}
	if d := time.Since(start); d < 90*time.Millisecond || d > 3*time.Second {
		t.Fatalf("Read timed out after %v, want about 100ms", d)
	}
	if _, err := c.Read(make([]byte, 10)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Read with the deadline passed: %v", err)
	}
	// Cleared, the deadline no longer applies: the Read waits for data.
	c.SetDeadline(time.Time{})
	go func() {
		time.Sleep(200 * time.Millisecond)
		peer.Write([]byte("late"))
	}()
	buf := make([]byte, 10)
	n, err := c.Read(buf)
	if err != nil || string(buf[:n]) != "late" {
		t.Fatalf("Read after clearing the deadline: %q, %v", buf[:n], err)
	}
}

func TestBlockingOnlyTCP(t *testing.T) {
	a, b := net.Pipe()
	defer b.Close()
	if c, err := blocking(a, nil); err != nil || c != a {
		t.Fatalf("blocking(pipe) = %T, %v; want it unchanged", c, err)
	}
}

// TestBlockingConnSleepsWhenDataIsSlow checks that a connection whose
// data comes in pieces far apart stops polling: its Reads sleep in recv,
// every byte arrives, and the counts add up.
func TestBlockingConnSleepsWhenDataIsSlow(t *testing.T) {
	c, peer := blockingPair(t)
	const pieces = 12
	var want []byte
	for i := range pieces {
		want = append(want, pattern(1000+i)...)
	}
	go func() {
		for i := range pieces {
			time.Sleep(10 * time.Millisecond) // far longer than any polls
			peer.Write(pattern(1000 + i))
		}
		peer.(*net.TCPConn).CloseWrite()
	}()
	got, err := io.ReadAll(c)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes, %v; want the %d sent", len(got), err, len(want))
	}
	w := c.waits.Snapshot()
	if w.Mode() != vocab.WaitSleeping || w.Blocked < pieces-1 || w.Polled > 1 {
		t.Fatalf("waits %+v (mode %q): want sleeping, a blocking recv for each piece", w, w.Mode())
	}
	checkWaitCounts(t, w)
}

// TestBlockingConnStreamExactBytes streams 64 MiB through a blocking
// connection: every byte arrives in order whichever way its Reads waited,
// and the counts add up.
func TestBlockingConnStreamExactBytes(t *testing.T) {
	c, peer := blockingPair(t)
	const size = 64 << 20
	go func() {
		chunk := pattern(1 << 20)
		for range size / len(chunk) {
			if _, err := peer.Write(chunk); err != nil {
				return
			}
		}
		peer.(*net.TCPConn).CloseWrite()
	}()
	buf := make([]byte, 256<<10)
	want := pattern(1 << 20)
	total, reads := 0, int64(0)
	for {
		n, err := c.Read(buf)
		reads++
		for i := range n {
			if buf[i] != want[(total+i)%len(want)] {
				t.Fatalf("byte %d is %q, want %q", total+i, buf[i], want[(total+i)%len(want)])
			}
		}
		total += n
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	w := c.waits.Snapshot()
	if total != size || w.Reads != reads {
		t.Fatalf("read %d bytes in %d Reads, the counter says %d Reads; want %d bytes", total, reads, w.Reads, size)
	}
	if m := w.Mode(); m != vocab.WaitPolling && m != vocab.WaitSleeping {
		t.Fatalf("mode %q", m)
	}
	checkWaitCounts(t, w)
}

// checkWaitCounts checks that w's counts agree: a wait ends by a poll or
// in a blocking recv, once per Read at most, and each wait ended by a poll
// follows at least one empty poll.
func checkWaitCounts(t *testing.T, w stats.ReadWaits) {
	t.Helper()
	if w.Polled+w.Blocked > w.Reads || w.Polls < w.Polled || w.Polls > (maxPolls+1)*w.Reads {
		t.Fatalf("waits %+v do not add up", w)
	}
}
