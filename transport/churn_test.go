package transport

import (
	"io"
	"runtime"
	"testing"
	"time"
)

// abortH2C opens an h2c connection to addr, GETs path, reads about 20 KB
// of the answer and closes the connection without resetting the stream:
// a download the client walked away from.
func abortH2C(t *testing.T, addr, path string) {
	t.Helper()
	c := h2cGetUnread(t, addr, path)
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.CopyN(io.Discard, c, 20_000); err != nil {
		t.Fatalf("reading the start of the answer: %v", err)
	}
}

// liveHeap is the heap in use after two collections.
func liveHeap() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// TestAbortedH2DownloadsFreed aborts h2c downloads by closing their
// connections mid-stream, then measures the live heap: Go's HTTP/2 server
// re-arms a closed connection's idle timer as it closes the streams left
// open (closeStream after serve's deferred idleTimer.Stop), keeping the
// connection's buffers (about 17 KB) reachable until the idle timeout; the
// server must not keep them.
func TestAbortedH2DownloadsFreed(t *testing.T) {
	h := &floorHandler{}
	s, err := NewServer(ServerOptions{Handler: h, Listen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	addr := s.Addr(H2C)
	abortH2C(t, addr, "/big") // warm up: pools, first allocations
	waitFor(t, 5*time.Second, func() bool { return h.failed.Load() == 1 })
	before := liveHeap()
	const aborts = 400
	began := time.Now()
	n := 1
	for ; n <= aborts && time.Since(began) < 20*time.Second; n++ {
		abortH2C(t, addr, "/big")
	}
	// Every handler has seen its connection go; then the server has had
	// a moment to let go of what they held (the MinDataRate watch looks
	// at a connection twice a second).
	waitFor(t, 10*time.Second, func() bool { return h.failed.Load() == int64(n) })
	time.Sleep(1500 * time.Millisecond)
	per := (liveHeap() - before) / int64(n-1)
	t.Logf("%d aborted downloads: %d bytes of live heap each", n-1, per)
	if per > 2048 {
		t.Fatalf("%d bytes of live heap kept per aborted h2c download, want under 2048 (Go's HTTP/2 server keeps ~17 KB until the idle timeout)", per)
	}
	if n := mapLen(&s.churn); n != 0 {
		t.Fatalf("%d closed connections still in the ConnState map", n)
	}
}

func mapLen(c *churnConns) (n int) {
	c.m.Range(func(any, any) bool { n++; return true })
	return n
}
