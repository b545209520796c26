package netem

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// preciseSleeper sleeps on a timerfd that the runtime's poller waits on:
// the goroutine parks and its P runs other goroutines. A nanosleep kept
// its P until sysmon took it back (sysmon wakes up to 10 ms apart), so two
// ferries sleeping on a two-core machine held both Ps and stalled every
// other goroutine, the ferries' own readers among them, for milliseconds.
// A Go timer frees the P too but wakes up to a millisecond late (the
// poller's timeout is in milliseconds); the timerfd's expiry wakes the
// poller at once.
type preciseSleeper struct {
	fd int
	f  *os.File
}

// newPreciseSleeper returns a sleeper, or one that sleeps on Go timers if
// this kernel gives no timerfd (the ferry's Late counts then say so).
func newPreciseSleeper() *preciseSleeper {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return &preciseSleeper{fd: -1}
	}
	return &preciseSleeper{fd: fd, f: os.NewFile(uintptr(fd), "timerfd")}
}

// sleep returns after d.
func (s *preciseSleeper) sleep(d time.Duration) {
	if s.f == nil {
		time.Sleep(d)
		return
	}
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
	if err := unix.TimerfdSettime(s.fd, 0, &spec, nil); err != nil {
		time.Sleep(d)
		return
	}
	var expirations [8]byte
	if _, err := s.f.Read(expirations[:]); err != nil {
		time.Sleep(d)
	}
}

// close releases the timerfd.
func (s *preciseSleeper) close() {
	if s.f != nil {
		_ = s.f.Close()
	}
}
