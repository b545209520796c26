package procstat

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ClockTicks is Linux's USER_HZ, the unit of /proc/<pid>/stat's times:
// 100 on every architecture Go supports.
const ClockTicks = 100

// Stat is what httpvs reads of one /proc/<pid>/stat line. Times are in
// ClockTicks.
type Stat struct {
	PID, Pgrp int
	State     byte
	// User and Sys are utime+cutime and stime+cstime: the process's own
	// CPU time with that of the children it has waited for.
	User, Sys uint64
	// Start is when the process started, in ticks since boot: a PID with
	// another Start is another process.
	Start uint64
}

// Seconds is s's CPU time, user and system, in seconds.
func (s Stat) Seconds() (user, sys float64) {
	return float64(s.User) / ClockTicks, float64(s.Sys) / ClockTicks
}

// ParseStat reads a /proc/<pid>/stat line. The command name (field 2)
// may hold spaces and parentheses, so fields are counted from its last ')'.
func ParseStat(line string) (Stat, error) {
	open, end := strings.IndexByte(line, '('), strings.LastIndexByte(line, ')')
	if open < 0 || end < open {
		return Stat{}, fmt.Errorf("malformed stat line %q", line)
	}
	f := strings.Fields(line[end+1:])
	if len(f) < 20 {
		return Stat{}, fmt.Errorf("short stat line %q", line)
	}
	var s Stat
	var err error
	if s.PID, err = strconv.Atoi(strings.TrimSpace(line[:open])); err != nil {
		return Stat{}, fmt.Errorf("stat pid: %w", err)
	}
	s.State = f[0][0]
	if s.Pgrp, err = strconv.Atoi(f[2]); err != nil {
		return Stat{}, fmt.Errorf("stat pgrp: %w", err)
	}
	var t [4]uint64 // utime, stime, cutime, cstime: fields 14-17
	for i := range t {
		if t[i], err = strconv.ParseUint(f[11+i], 10, 64); err != nil {
			return Stat{}, fmt.Errorf("stat times: %w", err)
		}
	}
	if s.Start, err = strconv.ParseUint(f[19], 10, 64); err != nil { // field 22
		return Stat{}, fmt.Errorf("stat starttime: %w", err)
	}
	s.User, s.Sys = t[0]+t[2], t[1]+t[3]
	return s, nil
}

// ReadStat reads /proc/<pid>/stat.
func ReadStat(pid int) (Stat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Stat{}, err
	}
	return ParseStat(string(b))
}
