package peers

// CPUTime is CPU time spent by a process tree, in seconds.
type CPUTime struct {
	User   float64 // user-mode seconds
	System float64 // kernel-mode seconds
}

// Total returns user plus system seconds.
func (c CPUTime) Total() float64 { return c.User + c.System }

// Sub returns c - o: the CPU spent between two readings.
func (c CPUTime) Sub(o CPUTime) CPUTime {
	return CPUTime{User: c.User - o.User, System: c.System - o.System}
}
