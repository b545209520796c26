package netem

import (
	"time"

	"golang.org/x/sys/unix"
)

// sleepPrecise sleeps d in nanosleep: tens of microseconds late at most on
// an idle machine, where a Go timer can be a millisecond late.
func sleepPrecise(d time.Duration) {
	ts := unix.NsecToTimespec(int64(d))
	for unix.Nanosleep(&ts, &ts) == unix.EINTR {
	}
}
