// Package pin binds processes to CPUs, so that a load generator and the
// server it measures each run on cores of their own instead of migrating
// across the same ones: on a two-core machine their goroutines otherwise
// trade places from transfer to transfer, and the cost per byte moves with
// them (bench/noise.sh measures the spread with and without).
package pin

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrUnsupported is returned where CPU affinity cannot be set (not Linux).
var ErrUnsupported = errors.New("pinning to CPUs is supported on Linux only")

// Split divides cpus between a client and a server: the first half (the
// first CPU of two) to the client, the rest to the server. ok is false
// with fewer than two CPUs, where there is nothing to divide.
func Split(cpus []int) (client, server []int, ok bool) {
	if len(cpus) < 2 {
		return nil, nil, false
	}
	h := len(cpus) / 2
	return append([]int(nil), cpus[:h]...), append([]int(nil), cpus[h:]...), true
}

// Format writes cpus as a list, "0,2,3".
func Format(cpus []int) string {
	s := make([]string, len(cpus))
	for i, c := range cpus {
		s[i] = strconv.Itoa(c)
	}
	return strings.Join(s, ",")
}

// Parse reads a list of CPU numbers, "1" or "0,2" or "2-3".
func Parse(text string) ([]int, error) {
	var cpus []int
	seen := map[int]bool{}
	for _, part := range strings.Split(text, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 0 || b < a || b > 4095 {
			return nil, fmt.Errorf("CPU list %q: want CPU numbers such as 1, 0,2 or 2-3", text)
		}
		for c := a; c <= b; c++ {
			if !seen[c] {
				seen[c] = true
				cpus = append(cpus, c)
			}
		}
	}
	return cpus, nil
}
