//go:build !linux

package netem

import "time"

// preciseSleeper sleeps on Go timers.
type preciseSleeper struct{}

func newPreciseSleeper() *preciseSleeper { return &preciseSleeper{} }

func (*preciseSleeper) sleep(d time.Duration) { time.Sleep(d) }

func (*preciseSleeper) close() {}
