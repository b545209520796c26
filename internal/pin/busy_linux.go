package pin

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Foreign measures, over d, how many cores' worth of CPU other programs
// used: the machine's busy time (/proc/stat: user, nice, system, irq,
// softirq, steal) less this process's own. A pinned side cannot move
// away from another program on its core, so a run pins only on a quiet
// machine.
func Foreign(ctx context.Context, d time.Duration) (cores float64, err error) {
	b0, err := machineBusy()
	if err != nil {
		return 0, err
	}
	s0, t0 := selfCPU(), time.Now()
	select {
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-time.After(d):
	}
	b1, err := machineBusy()
	if err != nil {
		return 0, err
	}
	wall := time.Since(t0).Seconds()
	return max((b1-b0)-(selfCPU()-s0), 0) / wall, nil
}

// machineBusy is the seconds every CPU of the machine has been busy.
func machineBusy() (float64, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, fmt.Errorf("read /proc/stat: %w", err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0, fmt.Errorf("read /proc/stat: unexpected first line %q", line)
	}
	var ticks float64
	for _, i := range []int{1, 2, 3, 6, 7, 8} { // user nice system irq softirq steal
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return 0, fmt.Errorf("read /proc/stat: %w", err)
		}
		ticks += v
	}
	return ticks / 100, nil // USER_HZ is 100 on Linux
}

// selfCPU is this process's CPU seconds, user and system.
func selfCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
