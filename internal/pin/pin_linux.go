package pin

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

// Available returns the CPUs this process may run on (its affinity
// mask), in order.
func Available() ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, fmt.Errorf("read CPU affinity: %w", err)
	}
	var cpus []int
	for c := 0; c < len(set)*64 && len(cpus) < set.Count(); c++ {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}

// Self binds every thread of this process to cpus and sets GOMAXPROCS to
// their number (Go reads the mask only at start). restore puts back the
// mask and GOMAXPROCS it found. Threads started later inherit the mask
// of the thread that starts them.
func Self(cpus []int) (restore func(), err error) {
	old, err := Available()
	if err != nil {
		return nil, err
	}
	if err := Process(os.Getpid(), cpus); err != nil {
		return nil, err
	}
	procs := runtime.GOMAXPROCS(len(cpus))
	return func() {
		Process(os.Getpid(), old)
		if os.Getenv("GOMAXPROCS") == "" {
			runtime.SetDefaultGOMAXPROCS()
		} else {
			runtime.GOMAXPROCS(procs)
		}
	}, nil
}

// Process binds every thread of process pid to cpus. A thread started
// while it runs may be missed: it passes over the threads until a pass
// finds none new (at most eight passes).
func Process(pid int, cpus []int) error {
	var set unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	if set.Count() == 0 {
		return fmt.Errorf("pin process %d: no CPUs given", pid)
	}
	done := map[int]bool{}
	for range 8 {
		tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
		if err != nil {
			return fmt.Errorf("pin process %d: %w", pid, err)
		}
		fresh := 0
		for _, t := range tasks {
			tid, err := strconv.Atoi(t.Name())
			if err != nil || done[tid] {
				continue
			}
			if err := unix.SchedSetaffinity(tid, &set); err != nil && err != unix.ESRCH {
				return fmt.Errorf("pin process %d to CPUs %s: %w", pid, Format(cpus), err)
			}
			done[tid], fresh = true, fresh+1
		}
		if fresh == 0 {
			return nil
		}
	}
	return nil
}

// Start starts cmd bound to cpus: it forks from a thread bound to them,
// so the process and everything it starts inherit the mask from its
// first instruction (a server that forks workers at start included).
// Empty cpus start it as is.
func Start(cmd *exec.Cmd, cpus []int) error {
	if len(cpus) == 0 {
		return cmd.Start()
	}
	var set, old unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return fmt.Errorf("read CPU affinity: %w", err)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("pin to CPUs %s: %w", Format(cpus), err)
	}
	err := cmd.Start()
	if rerr := unix.SchedSetaffinity(0, &old); rerr != nil && err == nil {
		err = fmt.Errorf("restore CPU affinity: %w", rerr)
	}
	return err
}
