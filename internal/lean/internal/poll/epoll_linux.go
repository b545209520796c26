//go:build linux

package poll

import (
	"os"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// HoldP bounds how long Wait blocks without giving up its P, and how
// often a busy loop lets other goroutines run.
const HoldP = time.Millisecond

// Wait is an event loop's wait on epfd for up to d (at least a
// millisecond; now is the loop's last clock reading, which is close
// enough for millisecond timeouts and saves a clock read per wait).
//
// With hold it waits in a raw epoll_pwait that keeps the goroutine's P. A
// plain system call hands the P back to the scheduler; with every P in a
// loop's epoll_wait, sysmon takes them away every 20 us and, when the wait
// ends, the loop's thread has to win a P back, often by parking and
// letting another thread run it. On two shared cores that delay between a
// response and the next request made the server's read for it find the
// socket empty more often than under wrk (figures in docs/measurements/),
// and serve fewer requests per core. So the loop holds its P for up to
// HoldP, yields it at least that often (runtime.Gosched, noted in
// *yielded) so timers and other goroutines still run, and falls back to a
// plain epoll_wait when nothing arrives for HoldP. Without hold it always
// waits the plain way: a server in this process needs the Ps the loops
// would hold.
func Wait(epfd int, events []unix.EpollEvent, d time.Duration, hold bool, now time.Time, yielded *time.Time) (int, error) {
	msec := max(int(d/time.Millisecond), 1)
	if !hold {
		return unix.EpollWait(epfd, events, msec)
	}
	if now.Sub(*yielded) >= HoldP {
		runtime.Gosched()
		*yielded = now
	}
	holdMsec := int(HoldP / time.Millisecond)
	r, _, errno := unix.RawSyscall6(unix.SYS_EPOLL_PWAIT, uintptr(epfd), uintptr(unsafe.Pointer(&events[0])), uintptr(len(events)), uintptr(min(msec, holdMsec)), 0, 0)
	if errno != 0 {
		return 0, errno
	}
	if r != 0 || msec <= holdMsec {
		return int(r), nil
	}
	return unix.EpollWait(epfd, events, msec-holdMsec)
}

// Set is an event loop's epoll set and the eventfd that ends its
// wait when the loop's context ends. Only the loop's goroutine uses EpollFD;
// WakeUp, which runs on another goroutine, writes wake under mu.
type Set struct {
	EpollFD int // the epoll descriptor, -1 until Open

	mu     sync.Mutex
	wake   int
	closed bool
}

// Open makes the set with its wake eventfd registered. On error the
// caller still closes it (Close closes what was made).
func (e *Set) Open() error {
	e.EpollFD, e.wake = -1, -1
	var err error
	if e.EpollFD, err = unix.EpollCreate1(unix.EPOLL_CLOEXEC); err != nil {
		return os.NewSyscallError("epoll_create1", err)
	}
	if e.wake, err = unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC); err != nil {
		return os.NewSyscallError("eventfd", err)
	}
	ev := unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(e.wake)}
	if err := unix.EpollCtl(e.EpollFD, unix.EPOLL_CTL_ADD, e.wake, &ev); err != nil {
		return os.NewSyscallError("epoll_ctl", err)
	}
	return nil
}

// WakeUp ends a wait in epoll_wait; it runs on ctx's AfterFunc goroutine.
func (e *Set) WakeUp() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.closed {
		one := [8]byte{1}
		_, _ = unix.Write(e.wake, one[:]) // a full counter still wakes the loop
	}
}

// Woken reports whether fd is the wake eventfd, reading it to rearm.
func (e *Set) Woken(fd int) bool {
	if fd != e.wake {
		return false
	}
	var b [8]byte
	_, _ = unix.Read(e.wake, b[:]) // only to rearm
	return true
}

// Close closes the eventfd (under mu, so WakeUp never writes to a
// closed or reused descriptor) and the set.
func (e *Set) Close() {
	e.mu.Lock()
	e.closed = true
	if e.wake >= 0 {
		unix.Close(e.wake)
	}
	e.mu.Unlock()
	if e.EpollFD >= 0 {
		unix.Close(e.EpollFD)
	}
}
