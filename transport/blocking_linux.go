package transport

import (
	"errors"
	"io"
	"net"
	"os"
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
// an OS thread, so it suits a few connections, not thousands.
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
}

// sockTimeout is a deadline and the socket timeout option that enforces it.
type sockTimeout struct {
	deadline atomic.Int64 // Unix nanoseconds; zero for none
	// armed is the timeout set on the socket now, in nanoseconds, so
	// that a call without a deadline costs no extra system call.
	armed atomic.Int64
	mu    sync.Mutex // serialises setting the option
}

// blocking moves c's socket out of Go's poller onto a blockingConn. It
// returns c unchanged when c is not a *net.TCPConn. On error c is closed.
func blocking(c net.Conn) (net.Conn, error) {
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
	bc := &blockingConn{fd: fd, laddr: tc.LocalAddr(), raddr: tc.RemoteAddr()}
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
// that differs from what is set. It returns EAGAIN when the deadline has
// passed.
func (c *blockingConn) arm(t *sockTimeout, opt int) error {
	dl := t.deadline.Load()
	if dl == 0 && t.armed.Load() == 0 {
		return nil
	}
	var want time.Duration
	if dl != 0 {
		if want = time.Until(time.Unix(0, dl)); want <= 0 {
			return unix.EAGAIN
		}
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
	if err := c.arm(&c.rd, unix.SO_RCVTIMEO); err != nil {
		return 0, c.opError("read", err)
	}
	n, err := c.spinRead(p)
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
	return n, nil
}

// spinWait is how long a Read polls an empty socket before it sleeps in
// the kernel. On loopback the sender has the next segment on its way: a
// reader that sleeps as soon as the queue is empty is woken (an IPI in a
// VM) for each segment, and the sender pays for those wake-ups; polling
// briefly keeps the reader awake across the gaps, as curl's slower loop
// does (measured: the server's CPU per GB and the wall time fall to
// curl's or below). pollGap spaces the non-blocking recv calls, waiting on
// the clock between them: the same CPU, a third of the system calls.
const (
	spinWait = 50 * time.Microsecond
	pollGap  = 2 * time.Microsecond
)

// spinRead reads p without sleeping, retrying an empty socket every
// pollGap for up to spinWait. EAGAIN means still empty.
func (c *blockingConn) spinRead(p []byte) (int, error) {
	start := time.Now()
	for {
		n, err := recvNoWait(c.fd, p)
		if err != unix.EAGAIN && err != unix.EINTR {
			return n, err
		}
		waited := time.Since(start)
		if waited >= spinWait {
			return 0, unix.EAGAIN
		}
		for next := waited + pollGap; time.Since(start) < next; {
			// Busy: a sleep would cost the wake-up this saves.
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
	if err := c.arm(&c.wr, unix.SO_SNDTIMEO); err != nil {
		return 0, c.opError("write", err)
	}
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
