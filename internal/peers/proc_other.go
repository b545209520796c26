//go:build !linux

package peers

import (
	"errors"
	"os"
	"os/exec"
)

// isolate does nothing off Linux: Stop kills the child itself only.
func isolate(*exec.Cmd) {}

func termGroup(pid int) { killGroup(pid) }

func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

func groupCPU(int) (CPUTime, error) {
	return CPUTime{}, errors.New("peer CPU time is measured on Linux only")
}

// groupAlive cannot see a process group off Linux; Stop's wait for the
// child is all it checks.
func groupAlive(int) []int { return nil }
