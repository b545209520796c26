package transport

import (
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Go's HTTP/2 server (net/http's bundled copy, as of Go 1.26 and on its
// tip) keeps a connection's memory for the whole IdleTimeout when the
// connection closes with streams still open: serve() stops the idle timer
// in a deferred call that runs before closeAllStreamsOnConnClose, and
// closeStream, as the last stream goes, re-arms the timer, whose callback
// keeps the serverConn and its write buffers reachable until it fires
// (about 17 KB, more with large frames, per download a client walked away
// from). h2Churn works around it from outside: when the connection's read
// fails (the peer has gone), it resets the streams whose handlers still
// run and holds the failed read back, for at most drainWait, until the
// server has closed them all; the read's error then ends serve() with no
// stream left to re-arm the timer, and the deferred Stop holds.
type h2Churn struct {
	mu      sync.Mutex
	streams map[*http.Request]*http.ResponseController // HTTP/2 handlers running
	h2      atomic.Bool                                // the connection carried HTTP/2
	active  atomic.Bool                                // ConnState: it has open streams
}

// drainWait bounds how long a failed read waits for the streams to close.
const drainWait = time.Second

// enter registers an HTTP/2 request's handler as running; the returned
// function unregisters it.
func (c *h2Churn) enter(r *http.Request, w http.ResponseWriter) (exit func()) {
	c.h2.Store(true)
	rc := http.NewResponseController(w)
	c.mu.Lock()
	if c.streams == nil {
		c.streams = make(map[*http.Request]*http.ResponseController)
	}
	c.streams[r] = rc
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		delete(c.streams, r)
		c.mu.Unlock()
	}
}

// drain resets the streams still running, once the connection's read has
// failed, and waits until the server has closed them all.
func (c *h2Churn) drain() {
	if !c.h2.Load() || !c.active.Load() {
		return
	}
	past := time.Now().Add(-time.Second)
	// Under the lock, so that no handler returns (exit) meanwhile: a
	// ResponseWriter must not be used once its handler has returned.
	c.mu.Lock()
	for _, rc := range c.streams {
		// A deadline in the past resets the stream at once (RST_STREAM
		// through the serve loop, which closes the stream).
		_ = rc.SetWriteDeadline(past)
		_ = rc.SetReadDeadline(past)
	}
	c.mu.Unlock()
	for end := time.Now().Add(drainWait); c.active.Load() && time.Now().Before(end); {
		time.Sleep(time.Millisecond)
	}
}

// churnConns finds each connection's h2Churn for the server's ConnState
// hook, which hears the connection (net/http passes the one ConnContext
// had) go active and idle as its streams open and close.
type churnConns struct{ m sync.Map } // net.Conn -> *h2Churn

func (cc *churnConns) add(c net.Conn, ch *h2Churn) { cc.m.Store(c, ch) }

// connState is an http.Server's ConnState.
func (cc *churnConns) connState(c net.Conn, state http.ConnState) {
	v, ok := cc.m.Load(c)
	if !ok {
		return
	}
	ch := v.(*h2Churn)
	switch state {
	case http.StateActive:
		ch.active.Store(true)
	case http.StateIdle:
		ch.active.Store(false)
	case http.StateClosed, http.StateHijacked:
		ch.active.Store(false)
		cc.m.Delete(c)
	}
}
