package transport

import (
	"crypto/tls"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// streamFloor holds an HTTP/2 or HTTP/3 connection's response writes to
// the floor. A stream's write can wait on flow control rather than on the
// socket (a peer that grants no window never lets the connection's
// writes block), so the connection is watched instead: while any of its
// handlers waits in a Write, it must send BytesPerSecond, window after
// window; Grace in a row under it, and the connection is dropped. A
// multiplexed connection whose streams share a slow link keeps sending,
// so it stays.
type streamFloor struct {
	rate   float64
	grace  time.Duration
	window time.Duration
	sent   func() int64 // bytes the connection has sent so far
	// chunk, when set, is the most a Write hands the stream at a time,
	// each piece counted into accepted (QUIC's measure: see markQUIC).
	chunk    int
	accepted atomic.Int64
	drop     func()      // closes the connection
	closed   func() bool // reports whether the connection has closed

	pending  atomic.Int64 // handler Writes waiting now
	watching atomic.Bool
	dropped  atomic.Bool

	mu    sync.Mutex // the watch's own state
	last  int64
	under time.Duration
}

// begin marks a Write as waiting, starting the watch if none runs.
func (f *streamFloor) begin() {
	if f.pending.Add(1) == 1 && f.watching.CompareAndSwap(false, true) {
		f.start()
	}
}

// end marks a Write done.
func (f *streamFloor) end() { f.pending.Add(-1) }

func (f *streamFloor) start() {
	f.mu.Lock()
	f.last, f.under = f.sent(), 0
	f.mu.Unlock()
	time.AfterFunc(f.window, f.tick)
}

// tick looks at the connection once a window while Writes wait.
func (f *streamFloor) tick() {
	if f.closed() {
		f.watching.Store(false)
		return
	}
	if f.pending.Load() == 0 {
		f.watching.Store(false)
		// A Write that began as the flag was still set has no watch:
		// take it up.
		if f.pending.Load() > 0 && f.watching.CompareAndSwap(false, true) {
			f.start()
		}
		return
	}
	f.mu.Lock()
	now := f.sent()
	if float64(now-f.last) < f.rate*f.window.Seconds() {
		f.under += f.window
	} else {
		f.under = 0
	}
	f.last = now
	under := f.under
	f.mu.Unlock()
	if under >= f.grace {
		f.dropped.Store(true)
		f.watching.Store(false)
		f.drop()
		return
	}
	time.AfterFunc(f.window, f.tick)
}

// floorWriter counts its Writes and Flushes as waiting on f.
type floorWriter struct {
	http.ResponseWriter
	f *streamFloor
}

func (w floorWriter) Write(p []byte) (int, error) {
	w.f.begin()
	n, err := w.write(p)
	w.f.end()
	if err != nil && w.f.dropped.Load() {
		err = slowError{}
	}
	return n, err
}

// write writes p whole, or in f.chunk pieces, each counted once the
// stream took it.
func (w floorWriter) write(p []byte) (int, error) {
	if w.f.chunk == 0 {
		return w.ResponseWriter.Write(p)
	}
	total := 0
	for len(p) > 0 {
		n, err := w.ResponseWriter.Write(p[:min(len(p), w.f.chunk)])
		total += n
		w.f.accepted.Add(int64(n))
		if err != nil {
			return total, err
		}
		p = p[n:]
	}
	return total, nil
}

// Flush sends what is buffered, as the wrapped writer's Flush does (gRPC
// flushes every message: no allocation here).
func (w floorWriter) Flush() {
	f, ok := w.ResponseWriter.(http.Flusher)
	if !ok {
		return
	}
	w.f.begin()
	f.Flush()
	w.f.end()
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (w floorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// floorOf finds the floorConn under c (its own, or a TLS connection's).
func floorOf(c net.Conn) *floorConn {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	fc, _ := c.(*floorConn)
	return fc
}
