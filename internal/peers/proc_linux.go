package peers

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// clockTicks is Linux's USER_HZ, the unit of /proc/<pid>/stat's times:
// 100 on every architecture Go supports.
const clockTicks = 100

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

// procStat is what httpvs reads of one /proc/<pid>/stat line.
type procStat struct {
	pid, pgrp int
	state     byte
	ticks     uint64 // utime+stime+cutime+cstime, in clockTicks
	user, sys uint64 // utime+cutime, stime+cstime
}

// parseStat reads a /proc/<pid>/stat line. The command name (field 2)
// may hold spaces and parentheses, so fields are counted from its last ')'.
func parseStat(line string) (procStat, error) {
	open, end := strings.IndexByte(line, '('), strings.LastIndexByte(line, ')')
	if open < 0 || end < open {
		return procStat{}, fmt.Errorf("malformed stat line %q", line)
	}
	f := strings.Fields(line[end+1:])
	if len(f) < 15 {
		return procStat{}, fmt.Errorf("short stat line %q", line)
	}
	var s procStat
	var err error
	if s.pid, err = strconv.Atoi(strings.TrimSpace(line[:open])); err != nil {
		return procStat{}, fmt.Errorf("stat pid: %w", err)
	}
	s.state = f[0][0]
	if s.pgrp, err = strconv.Atoi(f[2]); err != nil {
		return procStat{}, fmt.Errorf("stat pgrp: %w", err)
	}
	var t [4]uint64 // utime, stime, cutime, cstime: fields 14-17
	for i := range t {
		if t[i], err = strconv.ParseUint(f[11+i], 10, 64); err != nil {
			return procStat{}, fmt.Errorf("stat times: %w", err)
		}
	}
	s.user, s.sys = t[0]+t[2], t[1]+t[3]
	s.ticks = s.user + s.sys
	return s, nil
}

// groupMembers returns the processes of group pgid, zombies included.
func groupMembers(pgid int) ([]procStat, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("list processes: %w", err)
	}
	var out []procStat
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // gone since the listing
		}
		s, err := parseStat(string(b))
		if err == nil && s.pgrp == pgid {
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
		c.User += float64(m.user) / clockTicks
		c.System += float64(m.sys) / clockTicks
	}
	return c, nil
}

// groupAlive returns the pids of group pgid's members that still run
// (zombies are dead: only their parent's wait is missing).
func groupAlive(pgid int) []int {
	ms, _ := groupMembers(pgid)
	var pids []int
	for _, m := range ms {
		if m.state != 'Z' && m.state != 'X' {
			pids = append(pids, m.pid)
		}
	}
	return pids
}
