package browser

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// ownGroup starts cmd in a process group of its own, which killGroup
// ends at once, and asks the kernel to kill it if the thread that starts
// it ends (the process dies, or the network namespace's thread goes).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup sends SIGKILL to cmd's process group: the browser and the
// helpers it forked (zygote, renderer, network and GPU processes).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// killLeftovers kills any process still running with dir as its
// --user-data-dir (every helper of the browser is given it), until a few
// looks in a row find none or a second has passed: a helper that left
// the process group, or was forked as the group died.
func killLeftovers(dir string) {
	deadline := time.Now().Add(time.Second)
	for quiet := 0; quiet < 3 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if pids := Running(dir); len(pids) > 0 {
			for _, pid := range pids {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			quiet = 0
		} else {
			quiet++
		}
	}
}

// Running returns the processes of this machine whose command line holds
// an argument that contains marker (a browser's profile directory, say),
// this one aside. Tests use it to check that no browser outlived a load.
func Running(marker string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		for _, arg := range bytes.Split(cmdline, []byte{0}) {
			if bytes.Contains(arg, []byte(marker)) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}
