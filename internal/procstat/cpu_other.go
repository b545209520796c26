//go:build !unix

package procstat

// cpuSeconds is not implemented off Unix: it reports zero.
func cpuSeconds() (user, sys float64) { return 0, 0 }
