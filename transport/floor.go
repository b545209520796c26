package transport

import (
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
)

// MinDataRate is the slowest a peer may send a request body or take a
// response, as Kestrel's MinRequestBodyDataRate and MinResponseDataRate
// and nginx's client_body_timeout and send_timeout bound them: a peer
// under it for longer than Grace has its connection closed, so that
// sockets that never read or that send a byte a second cannot hold a
// server's connections (ServerOptions.MaxConns) for as long as they like.
//
// A response is judged on TCP (h1, h2c, h1-tls, h2) by each write to the
// connection: a write that moves fewer than BytesPerSecond, half second
// after half second (or each half Grace if shorter), for Grace in a row
// fails: a peer that never reads is dropped about Grace plus a second
// after its socket's buffers filled. A request body is judged
// on every transport from the handler's first read of it: once Grace
// has passed, the bytes read must average BytesPerSecond.
type MinDataRate struct {
	// BytesPerSecond is the floor; zero means 240 bytes/s, and a
	// negative value turns both floors off.
	BytesPerSecond int64
	// Grace is how long a peer may stay under the floor; zero means
	// 5 s.
	Grace time.Duration
}

// Resolved returns m with its zero fields set to the defaults, and
// whether the floor is on.
func (m MinDataRate) resolved() (MinDataRate, bool) {
	if m.BytesPerSecond < 0 {
		return m, false
	}
	if m.BytesPerSecond == 0 {
		m.BytesPerSecond = defaults.MinDataRate
	}
	if m.Grace <= 0 {
		m.Grace = defaults.MinDataRateGrace
	}
	return m, true
}

// String describes the floor ("240 B/s after 5s", or "off").
func (m MinDataRate) String() string {
	r, on := m.resolved()
	if !on {
		return "off"
	}
	return fmt.Sprintf("%d B/s after %v", r.BytesPerSecond, r.Grace)
}

// ErrTooSlow is the error a read or write fails with when the peer was
// dropped for being slower than the server's MinDataRate.
var ErrTooSlow = errors.New("the peer was slower than the server's minimum data rate")

// slowError is ErrTooSlow as a timeout, so that servers treat it as one.
type slowError struct{}

func (slowError) Error() string   { return ErrTooSlow.Error() }
func (slowError) Timeout() bool   { return true }
func (slowError) Temporary() bool { return false }
func (slowError) Unwrap() error   { return ErrTooSlow }

// floorWindow is how often a blocked write is looked at: twice a second,
// or more often when Grace is under a second.
func floorWindow(grace time.Duration) time.Duration { return min(500*time.Millisecond, grace/2) }

// floorListener gives each accepted connection the response floor.
type floorListener struct {
	net.Listener
	rate MinDataRate
}

// withFloor wraps ln so that its connections' writes keep to m (unless
// m is off), and their failed reads let HTTP/2 streams close first
// (h2Churn).
func withFloor(ln net.Listener, m MinDataRate) net.Listener {
	r, on := m.resolved()
	if !on {
		r.BytesPerSecond = 0
	}
	return floorListener{Listener: ln, rate: r}
}

func (l floorListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &floorConn{Conn: c, rate: float64(l.rate.BytesPerSecond), grace: l.rate.Grace, window: floorWindow(l.rate.Grace)}, nil
}

// floorConn holds each Write to the floor: it keeps a write deadline
// armed a window ahead (re-armed at most twice a window, not on every
// write: a write within the armed window costs a clock read and an
// atomic load besides its lock); when a write times out it looks at the bytes moved since the
// last time out, and fails with a slowError once the write has been under
// the floor for Grace without a break, going on writing until then. A
// deadline its user sets (net/http's, TLS's) is kept: the earlier of the
// two holds, and the user's, once passed, fails the write as usual.
type floorConn struct {
	net.Conn
	rate          float64 // bytes per second; 0: no floor
	grace, window time.Duration

	wmu sync.Mutex // one Write at a time: its loop owns the deadline

	dmu   sync.Mutex
	armed time.Time // the write deadline set on Conn
	user  time.Time // the deadline the user set; zero: none
	// armedAt is armed in Unix nanoseconds (0: none), read without dmu
	// by each Write to see that the deadline needs no refresh.
	armedAt atomic.Int64

	written atomic.Int64 // bytes written so far (streamFloor's measure)
	closed  atomic.Bool
	// dropped is set once a write failed under the floor: every later
	// write fails at once, so that nothing (TLS's close_notify, which
	// waits 5 s for a peer that reads nothing) holds the connection.
	dropped     atomic.Bool
	onReadError atomic.Pointer[h2Churn] // drained before a failed read returns
}

// Read reads from the connection; a read that fails other than by a
// deadline first lets the connection's HTTP/2 streams close (h2Churn).
func (c *floorConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
		if ch := c.onReadError.Load(); ch != nil {
			ch.drain()
		}
	}
	return n, err
}

// Close closes the connection.
func (c *floorConn) Close() error {
	c.closed.Store(true)
	return c.Conn.Close()
}

func (c *floorConn) Write(p []byte) (int, error) {
	if c.rate == 0 {
		n, err := c.Conn.Write(p)
		c.written.Add(int64(n))
		return n, err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.dropped.Load() {
		return 0, slowError{}
	}
	attempt := time.Now()
	c.arm(attempt, false)
	total := 0
	var under time.Duration // how long the write has been under the floor, without a break
	for {
		n, err := c.Conn.Write(p[total:])
		total += n
		c.written.Add(int64(n))
		if err == nil || !errors.Is(err, os.ErrDeadlineExceeded) {
			return total, err
		}
		now := time.Now()
		c.dmu.Lock()
		user := c.user
		c.dmu.Unlock()
		if !user.IsZero() && !now.Before(user) {
			return total, err
		}
		// Judge the bytes this attempt moved since the last one, not
		// since the write began: a write that moved a burst into the
		// socket's buffer and then nothing is under the floor from then.
		took := now.Sub(attempt)
		if float64(n) < c.rate*took.Seconds() {
			under += took
		} else {
			under = 0
		}
		if under >= c.grace {
			c.dropped.Store(true)
			return total, slowError{}
		}
		attempt = now
		c.arm(now, true)
	}
}

// arm sets the write deadline a window after now, unless the one set is
// still more than half a window away (or force), and never past the
// user's.
func (c *floorConn) arm(now time.Time, force bool) {
	// The common case, a write within the window armed, costs an atomic
	// load: no lock, no SetWriteDeadline (which takes the poller's
	// lock and resets its timer).
	if a := c.armedAt.Load(); !force && a != 0 && a-now.UnixNano() > int64(c.window/2) {
		return
	}
	c.dmu.Lock()
	defer c.dmu.Unlock()
	if !force && c.armed.Sub(now) > c.window/2 {
		return
	}
	d := now.Add(c.window)
	if !c.user.IsZero() && c.user.Before(d) {
		d = c.user
	}
	c.setArmed(d)
	_ = c.Conn.SetWriteDeadline(d)
}

// setArmed records d as the write deadline set on Conn; dmu held.
func (c *floorConn) setArmed(d time.Time) {
	c.armed = d
	if d.IsZero() {
		c.armedAt.Store(0)
	} else {
		c.armedAt.Store(d.UnixNano())
	}
}

// SetWriteDeadline sets the user's write deadline; the floor's own holds
// beside it.
func (c *floorConn) SetWriteDeadline(t time.Time) error {
	c.dmu.Lock()
	defer c.dmu.Unlock()
	c.user = t
	d := c.armed
	if !t.IsZero() && (d.IsZero() || t.Before(d)) {
		d = t
	}
	c.setArmed(d)
	return c.Conn.SetWriteDeadline(d)
}

// SetDeadline sets the user's read and write deadlines.
func (c *floorConn) SetDeadline(t time.Time) error {
	return errors.Join(c.Conn.SetReadDeadline(t), c.SetWriteDeadline(t))
}

// CloseWrite half-closes the connection when the wrapped one can.
func (c *floorConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
