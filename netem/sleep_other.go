//go:build !linux

package netem

import "time"

// sleepPrecise sleeps d.
func sleepPrecise(d time.Duration) { time.Sleep(d) }
