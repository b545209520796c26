package transport

import (
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// blockingConn is a TCP connection read and written with blocking system
// calls on a socket of its own, outside Go's network poller: a download's
// reader sleeps in recv as curl does, instead of parking on EAGAIN and
// waking through epoll, and no idle thread of the process is woken by
// every packet that arrives on an edge-triggered socket while the reader
// is busy (measured in docs/measurements/: fewer context switches and
// system calls, less system time per GB over h1). Each blocked call holds
// an OS thread, so it suits a few connections, not thousands. A Read
// that finds the socket empty may poll it before it sleeps, as far as
// polling pays on this connection (waitPolicy).
//
// Deadlines are armed as SO_RCVTIMEO and SO_SNDTIMEO at the start of each
// call: one set while a call is blocked applies from the next call. Close
// wakes blocked calls (shutdown) before it closes the descriptor.
type blockingConn struct {
	fd           int
	laddr, raddr net.Addr
	// mu is held shared by Read and Write around their system calls and
	// exclusively by Close, so that the descriptor is never closed (and its
	// number reused) under a call still using it.
	mu     sync.RWMutex
	closed atomic.Bool
	once   sync.Once
	rd, wr sockTimeout // SO_RCVTIMEO, SO_SNDTIMEO
	pmu    sync.Mutex  // guards policy and lowat
	policy waitPolicy  // how Read waits for data
	lowat  int         // SO_RCVLOWAT set now; 0 for the kernel's default
	// rcvbuf is SO_RCVBUF as last read, rcvbufAge the batchFor calls
	// before it is read again.
	rcvbuf, rcvbufAge int
	bulk              atomic.Bool // the last Read found batchMin bytes: batch the next
	waits             *waitCounter
	// yielded is when a Read last passed through the scheduler, in
	// nanoseconds since epoch.
	yielded atomic.Int64
}

// yieldEvery is how often a connection's Reads pass through the
// scheduler, well within sysmon's forcePreemptNS (10ms): a goroutine that
// stays in system calls for that long without being scheduled looks to
// sysmon like one running too long, so it takes the P from the call, and
// then wakes every 20µs for a while.
const yieldEvery = 5 * time.Millisecond

// epoch is the origin of blockingConn.yielded (a monotonic reading).
var epoch = time.Now()

// yield lets another goroutine run (runtime.Gosched) when the last pass
// through the scheduler was yieldEvery ago or more; otherwise it costs
// one clock reading, once per Read or Write (never in a loop of polls).
func (c *blockingConn) yield() {
	now := int64(time.Since(epoch))
	if last := c.yielded.Load(); now-last >= int64(yieldEvery) && c.yielded.CompareAndSwap(last, now) {
		runtime.Gosched()
	}
}

// sockTimeout is a deadline and the socket timeout option that enforces it.
type sockTimeout struct {
	deadline atomic.Int64 // Unix nanoseconds; zero for none
	// armed is the timeout set on the socket now, in nanoseconds, so
	// that a call without a deadline costs no extra system call.
	armed atomic.Int64
	mu    sync.Mutex // serialises setting the option
}

// blocking moves c's socket out of Go's poller onto a blockingConn that
// counts how its Reads wait in w. It returns c unchanged when c is not a
// *net.TCPConn. On error c is closed.
func blocking(c net.Conn, w *waitCounter) (net.Conn, error) {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return c, nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		c.Close()
		return nil, err
	}
	fd := -1
	var dupErr error
	if err := rc.Control(func(s uintptr) { fd, dupErr = unix.FcntlInt(s, unix.F_DUPFD_CLOEXEC, 0) }); err != nil {
		c.Close()
		return nil, err
	}
	if dupErr != nil {
		c.Close()
		return nil, os.NewSyscallError("dup", dupErr)
	}
	bc := &blockingConn{fd: fd, laddr: tc.LocalAddr(), raddr: tc.RemoteAddr(), policy: newWaitPolicy(), waits: w}
	// Closing Go's descriptor removes it from the poller (EPOLL_CTL_DEL);
	// the socket lives on in the duplicate, so no FIN is sent.
	c.Close()
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, os.NewSyscallError("fcntl", err)
	}
	return bc, nil
}

func (c *blockingConn) opError(op string, err error) error {
	if c.closed.Load() {
		err = net.ErrClosed
	} else if errors.Is(err, unix.EAGAIN) || errors.Is(err, os.ErrDeadlineExceeded) {
		err = os.ErrDeadlineExceeded // SO_RCVTIMEO or SO_SNDTIMEO expired
	} else {
		err = os.NewSyscallError(op, err)
	}
	return &net.OpError{Op: op, Net: "tcp", Source: c.laddr, Addr: c.raddr, Err: err}
}

// arm sets socket option opt to what is left until t's deadline, when
// that differs from what is set, or to bound when that is sooner (0 for
// no bound). It returns EAGAIN when the deadline has passed.
func (c *blockingConn) arm(t *sockTimeout, opt int, bound time.Duration) error {
	dl := t.deadline.Load()
	if dl == 0 && bound == 0 && t.armed.Load() == 0 {
		return nil
	}
	var want time.Duration
	if dl != 0 {
		if want = time.Until(time.Unix(0, dl)); want <= 0 {
			return unix.EAGAIN
		}
	}
	if bound > 0 && (want == 0 || bound < want) {
		want = bound
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if int64(want) == t.armed.Load() {
		return nil
	}
	tv := unix.NsecToTimeval(want.Nanoseconds())
	if want > 0 && tv.Sec == 0 && tv.Usec == 0 {
		tv.Usec = 1 // zero would mean no timeout at all
	}
	if err := unix.SetsockoptTimeval(c.fd, unix.SOL_SOCKET, opt, &tv); err != nil {
		return err
	}
	t.armed.Store(int64(want))
	return nil
}

func (c *blockingConn) Read(p []byte) (int, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed.Load() {
		return 0, c.opError("read", net.ErrClosed)
	}
	if len(p) == 0 {
		return 0, nil
	}
	lowat, bound := c.batchFor(len(p)), time.Duration(0)
	if lowat > 0 {
		bound = batchStall
	}
	if err := c.arm(&c.rd, unix.SO_RCVTIMEO, bound); err != nil {
		return 0, c.opError("read", err)
	}
	c.waits.reads.Add(1)
	c.yield()
	var n int
	var err error
	if lowat > 0 {
		n, err = c.readBatch(p, lowat)
	} else if err = c.setLowat(0); err == nil {
		n, err = c.recv(p)
	}
	for err == unix.EAGAIN || err == unix.EINTR {
		// Sleeps until data, EOF, Close or the timeout (EAGAIN again).
		if n, err = unix.Read(c.fd, p); err == unix.EAGAIN {
			err = os.ErrDeadlineExceeded
		}
	}
	switch {
	case c.closed.Load():
		return 0, c.opError("read", net.ErrClosed) // woken by Close's shutdown
	case err != nil:
		return 0, c.opError("read", err)
	case n == 0:
		return 0, io.EOF
	}
	c.bulk.Store(n >= batchMin)
	return n, nil
}

// recv reads p as c's waitPolicy says: at once in a blocking recv, or
// without sleeping first, polling an empty socket until data comes or
// the policy's polls run out. EAGAIN and EINTR leave the blocking recv
// to Read.
func (c *blockingConn) recv(p []byte) (int, error) {
	c.pmu.Lock()
	k := c.policy.polls()
	c.pmu.Unlock()
	if k == 0 {
		c.waits.blocked.Add(1)
		return unix.Read(c.fd, p)
	}
	for n := 0; ; n++ {
		got, err := recvNoWait(c.fd, p)
		if err != unix.EAGAIN && err != unix.EINTR {
			if n > 0 {
				c.pmu.Lock()
				c.policy.found(n)
				c.pmu.Unlock()
				c.waits.polled.Add(1)
				c.waits.polls.Add(int64(n))
			}
			return got, err
		}
		if n == k {
			c.pmu.Lock()
			c.policy.missed(n + 1)
			c.pmu.Unlock()
			c.waits.polls.Add(int64(n + 1))
			c.waits.blocked.Add(1)
			return unix.Read(c.fd, p)
		}
	}
}

// recvNoWait is recv(fd, p, MSG_DONTWAIT).
func recvNoWait(fd int, p []byte) (int, error) {
	var ptr unsafe.Pointer
	if len(p) > 0 {
		ptr = unsafe.Pointer(&p[0])
	}
	n, _, e := unix.Syscall6(unix.SYS_RECVFROM, uintptr(fd), uintptr(ptr), uintptr(len(p)), unix.MSG_DONTWAIT, 0, 0)
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}

func (c *blockingConn) Write(p []byte) (int, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed.Load() {
		return 0, c.opError("write", net.ErrClosed)
	}
	if err := c.arm(&c.wr, unix.SO_SNDTIMEO, 0); err != nil {
		return 0, c.opError("write", err)
	}
	c.yield()
	done := 0
	for done < len(p) {
		n, err := unix.Write(c.fd, p[done:])
		if n > 0 {
			done += n
		}
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return done, c.opError("write", err)
		}
	}
	return done, nil
}

// Close wakes any blocked Read or Write, waits for them to return and
// closes the socket.
func (c *blockingConn) Close() error {
	err := net.ErrClosed
	c.once.Do(func() {
		c.closed.Store(true)
		unix.Shutdown(c.fd, unix.SHUT_RDWR) // wakes calls blocked on the socket
		c.mu.Lock()
		defer c.mu.Unlock()
		err = unix.Close(c.fd)
		if err != nil {
			err = os.NewSyscallError("close", err)
		}
	})
	return err
}

// CloseWrite half-closes the connection (sends FIN).
func (c *blockingConn) CloseWrite() error {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed.Load() {
		return net.ErrClosed
	}
	return os.NewSyscallError("shutdown", unix.Shutdown(c.fd, unix.SHUT_WR))
}

func (c *blockingConn) LocalAddr() net.Addr  { return c.laddr }
func (c *blockingConn) RemoteAddr() net.Addr { return c.raddr }

func (c *blockingConn) SetDeadline(t time.Time) error {
	c.SetReadDeadline(t)
	return c.SetWriteDeadline(t)
}

func (c *blockingConn) SetReadDeadline(t time.Time) error {
	c.rd.deadline.Store(unixNano(t))
	return nil
}

func (c *blockingConn) SetWriteDeadline(t time.Time) error {
	c.wr.deadline.Store(unixNano(t))
	return nil
}

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}
