package procstat

import (
	"os"
	"testing"
)

func TestParseStat(t *testing.T) {
	// A command name with a space and a parenthesis, as nginx's "nginx: worker process" or worse.
	line := "4242 (odd) name) S 1 4240 4240 0 -1 4194560 1174 0 0 0 250 75 3 4 20 0 1 0 12345 1 2 3\n"
	s, err := ParseStat(line)
	if err != nil {
		t.Fatal(err)
	}
	if s.PID != 4242 || s.Pgrp != 4240 || s.State != 'S' || s.User != 253 || s.Sys != 79 || s.Start != 12345 {
		t.Fatalf("%+v", s)
	}
	if user, sys := s.Seconds(); user != 2.53 || sys != 0.79 {
		t.Errorf("seconds %v, %v", user, sys)
	}
	for _, bad := range []string{"", "12 (x", "12 (x) S 1 2", "x (y) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20", "12 (y) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 x"} {
		if _, err := ParseStat(bad); err == nil {
			t.Errorf("ParseStat(%q) accepted", bad)
		}
	}
}

// TestReadStatSelf: this process's own line reads, with its own PID.
func TestReadStatSelf(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip(err)
	}
	s, err := ReadStat(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if s.PID != os.Getpid() || s.Start == 0 {
		t.Errorf("%+v", s)
	}
}
