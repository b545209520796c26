package netem

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// alarmLag is how long after its Go timer's time the ferry's alarm goes
// off: late enough that the timer is due when the alarm wakes the poller.
const alarmLag = 10 * time.Microsecond

// alarm wakes the runtime's poller at a time of its choosing: a timerfd
// that the poller watches and no goroutine reads. The ferry waits on a Go
// timer, which a busy P runs at its next scheduling point, but an idle
// poller sleeps in whole milliseconds and would wake up to one late; the
// timerfd's expiry ends that sleep at once. (A nanosleep was precise too,
// but kept its P until sysmon, which wakes up to 10 ms apart, took it
// back: two ferries sleeping on a two-core machine held both Ps and
// stalled every other goroutine, the ferries' own readers among them.)
type alarm struct {
	fd int
	f  *os.File // registers fd with the poller; nil without a timerfd
}

// newAlarm returns an alarm, or one that does nothing if this kernel gives
// no timerfd (the ferry's Late counts then say what it costs).
func newAlarm() *alarm {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return &alarm{fd: -1}
	}
	return &alarm{fd: fd, f: os.NewFile(uintptr(fd), "timerfd")}
}

// set makes the alarm go off after d; setting it again replaces the last
// time (and resets its count).
func (a *alarm) set(d time.Duration) {
	if a.f != nil {
		spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
		_ = unix.TimerfdSettime(a.fd, 0, &spec, nil)
	}
}

// close releases the timerfd.
func (a *alarm) close() {
	if a.f != nil {
		_ = a.f.Close()
	}
}
