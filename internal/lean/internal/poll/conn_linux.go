//go:build linux

package poll

import (
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// ErrWouldBlock is what an Conn in loop mode reads when the socket has
// nothing: a temporary net.Error, which crypto/tls passes on without
// failing the connection (the bytes of a partial record stay buffered).
var ErrWouldBlock error = wouldBlock{}

type wouldBlock struct{}

func (wouldBlock) Error() string   { return "read would block" }
func (wouldBlock) Timeout() bool   { return true }
func (wouldBlock) Temporary() bool { return true }

// Conn is a net.Conn over a non-blocking socket that Go's netpoller does
// not watch, so that an event loop can watch it in its own epoll set. It
// waits in poll(2) when the socket is not ready, bounded by its deadline,
// except that in loop mode its reads return ErrWouldBlock instead. It is
// not safe for concurrent reads or concurrent writes.
type Conn struct {
	// FD is the socket's descriptor, the key of an event loop's epoll set.
	FD int
	// Loop makes reads return ErrWouldBlock rather than wait.
	Loop bool
	// Short says the last read filled less than its buffer: the socket is
	// drained. The loop that reads it clears it.
	Short bool
	// Deadline bounds a wait in poll; when zero, a wait is bounded by
	// WriteWait from its start.
	Deadline  time.Time
	WriteWait time.Duration // bounds a wait in poll when Deadline is zero

	laddr, raddr net.Addr
	closeOnce    sync.Once
	closeErr     error
}

// NewConn takes conn's socket away from Go's netpoller: it duplicates
// the descriptor and closes conn (whose close removes the original from
// the netpoller's epoll set).
func NewConn(conn net.Conn) (*Conn, error) {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return nil, errors.New("connection has no file descriptor")
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil, err
	}
	fd := -1
	cerr := rc.Control(func(s uintptr) { fd, err = unix.FcntlInt(s, unix.F_DUPFD_CLOEXEC, 0) })
	if cerr != nil {
		err = cerr
	}
	fc := &Conn{FD: fd, laddr: conn.LocalAddr(), raddr: conn.RemoteAddr()}
	conn.Close()
	if err != nil {
		return nil, os.NewSyscallError("fcntl", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, os.NewSyscallError("fcntl", err)
	}
	return fc, nil
}

// Read reads what the socket has, waiting in poll(2) for it unless Loop
// is set.
func (fc *Conn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := unix.Read(fc.FD, p)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN && fc.Loop:
			return 0, ErrWouldBlock
		case err == unix.EAGAIN:
			if err := fc.wait(unix.POLLIN); err != nil {
				return 0, err
			}
			continue
		case err != nil:
			return 0, &net.OpError{Op: "read", Net: "tcp", Source: fc.laddr, Addr: fc.raddr, Err: os.NewSyscallError("read", err)}
		case n == 0:
			return 0, io.EOF
		}
		fc.Short = n < len(p)
		return n, nil
	}
}

// Write writes all of p, waiting in poll(2) while the socket is full.
func (fc *Conn) Write(p []byte) (int, error) {
	written := 0
	for written < len(p) {
		n, err := unix.Write(fc.FD, p[written:])
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			if err := fc.wait(unix.POLLOUT); err != nil {
				return written, err
			}
			continue
		case err != nil:
			return written, &net.OpError{Op: "write", Net: "tcp", Source: fc.laddr, Addr: fc.raddr, Err: os.NewSyscallError("write", err)}
		}
		written += n
	}
	return written, nil
}

// wait blocks in poll(2) until the socket is ready for events, or its
// deadline (or, without one, WriteWait) has passed.
func (fc *Conn) wait(events int16) error {
	deadline := fc.Deadline
	if deadline.IsZero() {
		deadline = time.Now().Add(fc.WriteWait)
	}
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return os.ErrDeadlineExceeded
		}
		pfd := []unix.PollFd{{Fd: int32(fc.FD), Events: events}}
		_, err := unix.Poll(pfd, int(min(left/time.Millisecond+1, 1000)))
		if err != nil && err != unix.EINTR {
			return os.NewSyscallError("poll", err)
		}
		if pfd[0].Revents != 0 {
			return nil
		}
	}
}

// Close closes the socket, which also takes it out of any epoll set.
func (fc *Conn) Close() error {
	fc.closeOnce.Do(func() { fc.closeErr = unix.Close(fc.FD) })
	return fc.closeErr
}

// LocalAddr returns the socket's local address.
func (fc *Conn) LocalAddr() net.Addr { return fc.laddr }

// RemoteAddr returns the socket's remote address.
func (fc *Conn) RemoteAddr() net.Addr { return fc.raddr }

// SetDeadline bounds the waits of reads and writes; crypto/tls sets it
// before its close_notify.
func (fc *Conn) SetDeadline(t time.Time) error { fc.Deadline = t; return nil }

// SetReadDeadline is SetDeadline: reads and writes share one deadline.
func (fc *Conn) SetReadDeadline(t time.Time) error { fc.Deadline = t; return nil }

// SetWriteDeadline is SetDeadline: reads and writes share one deadline.
func (fc *Conn) SetWriteDeadline(t time.Time) error { fc.Deadline = t; return nil }
