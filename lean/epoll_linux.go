//go:build linux

package lean

import (
	"runtime"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// holdP bounds how long epollWait blocks without giving up its P, and how
// often a busy loop lets other goroutines run.
const holdP = time.Millisecond

// epollWait is an event loop's wait on epfd for up to d (at least a
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
// holdP, yields it at least that often (runtime.Gosched, noted in
// *yielded) so timers and other goroutines still run, and falls back to a
// plain epoll_wait when nothing arrives for holdP. Without hold it always
// waits the plain way: a server in this process needs the Ps the loops
// would hold.
func epollWait(epfd int, events []unix.EpollEvent, d time.Duration, hold bool, now time.Time, yielded *time.Time) (int, error) {
	msec := max(int(d/time.Millisecond), 1)
	if !hold {
		return unix.EpollWait(epfd, events, msec)
	}
	if now.Sub(*yielded) >= holdP {
		runtime.Gosched()
		*yielded = now
	}
	holdMsec := int(holdP / time.Millisecond)
	r, _, errno := unix.RawSyscall6(unix.SYS_EPOLL_PWAIT, uintptr(epfd), uintptr(unsafe.Pointer(&events[0])), uintptr(len(events)), uintptr(min(msec, holdMsec)), 0, 0)
	if errno != 0 {
		return 0, errno
	}
	if r != 0 || msec <= holdMsec {
		return int(r), nil
	}
	return unix.EpollWait(epfd, events, msec-holdMsec)
}
