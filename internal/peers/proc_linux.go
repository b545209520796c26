package peers

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"

	"github.com/httpvs/httpvs/internal/procstat"
)

// isolate puts the child in a process group of its own (its children
// join it), and asks the kernel to kill it if this process dies.
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// termGroup asks every process in group pgid to end (SIGTERM), so that
// masters reap their workers rather than leave them to init.
func termGroup(pgid int) {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
}

// killGroup sends SIGKILL to every process in group pgid.
func killGroup(pgid int) {
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// groupMembers returns the processes of group pgid, zombies included.
func groupMembers(pgid int) ([]procstat.Stat, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("list processes: %w", err)
	}
	var out []procstat.Stat
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue // not a process
		}
		s, err := procstat.ReadStat(pid)
		if err == nil && s.Pgrp == pgid { // an error: gone since the listing
			out = append(out, s)
		}
	}
	return out, nil
}

// groupCPU returns the CPU time of every process in group pgid, with the
// time of the children each has waited for.
func groupCPU(pgid int) (CPUTime, error) {
	ms, err := groupMembers(pgid)
	if err != nil {
		return CPUTime{}, err
	}
	var c CPUTime
	for _, m := range ms {
		user, sys := m.Seconds()
		c.User += user
		c.System += sys
	}
	return c, nil
}

// groupAlive returns the pids of group pgid's members that still run
// (zombies are dead: only their parent's wait is missing).
func groupAlive(pgid int) []int {
	ms, _ := groupMembers(pgid)
	var pids []int
	for _, m := range ms {
		if m.State != 'Z' && m.State != 'X' {
			pids = append(pids, m.PID)
		}
	}
	return pids
}
