//go:build linux

package lean

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

// errWouldBlock is what an fdConn in loop mode reads when the socket has
// nothing: a temporary net.Error, which crypto/tls passes on without
// failing the connection (the bytes of a partial record stay buffered).
var errWouldBlock error = wouldBlock{}

type wouldBlock struct{}

func (wouldBlock) Error() string   { return "read would block" }
func (wouldBlock) Timeout() bool   { return true }
func (wouldBlock) Temporary() bool { return true }

// fdConn is a net.Conn over a non-blocking socket that Go's netpoller does
// not watch, so that an event loop can watch it in its own epoll set. It
// waits in poll(2) when the socket is not ready, bounded by its deadline,
// except that in loop mode its reads return errWouldBlock instead. It is
// not safe for concurrent reads or concurrent writes.
type fdConn struct {
	fd           int
	laddr, raddr net.Addr
	loop         bool      // reads return errWouldBlock rather than wait
	short        bool      // the last read filled less than its buffer: the socket is drained
	deadline     time.Time // bounds a wait in poll; zero: writeWait
	writeWait    time.Duration
	closeOnce    sync.Once
	closeErr     error
}

// newFDConn takes conn's socket away from Go's netpoller: it duplicates
// the descriptor and closes conn (whose close removes the original from
// the netpoller's epoll set).
func newFDConn(conn net.Conn) (*fdConn, error) {
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
	fc := &fdConn{fd: fd, laddr: conn.LocalAddr(), raddr: conn.RemoteAddr()}
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

func (fc *fdConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := unix.Read(fc.fd, p)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN && fc.loop:
			return 0, errWouldBlock
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
		fc.short = n < len(p)
		return n, nil
	}
}

func (fc *fdConn) Write(p []byte) (int, error) {
	written := 0
	for written < len(p) {
		n, err := unix.Write(fc.fd, p[written:])
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
// deadline (or, without one, writeWait) has passed.
func (fc *fdConn) wait(events int16) error {
	deadline := fc.deadline
	if deadline.IsZero() {
		deadline = time.Now().Add(fc.writeWait)
	}
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return os.ErrDeadlineExceeded
		}
		pfd := []unix.PollFd{{Fd: int32(fc.fd), Events: events}}
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
func (fc *fdConn) Close() error {
	fc.closeOnce.Do(func() { fc.closeErr = unix.Close(fc.fd) })
	return fc.closeErr
}

func (fc *fdConn) LocalAddr() net.Addr  { return fc.laddr }
func (fc *fdConn) RemoteAddr() net.Addr { return fc.raddr }

// SetDeadline bounds the waits of reads and writes; crypto/tls sets it
// before its close_notify.
func (fc *fdConn) SetDeadline(t time.Time) error      { fc.deadline = t; return nil }
func (fc *fdConn) SetReadDeadline(t time.Time) error  { fc.deadline = t; return nil }
func (fc *fdConn) SetWriteDeadline(t time.Time) error { fc.deadline = t; return nil }
