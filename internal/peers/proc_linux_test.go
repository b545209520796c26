package peers

import (
	"os"
	"testing"
)

func TestParseStat(t *testing.T) {
	// A command name with a space and a parenthesis, as nginx's "nginx: worker process" or worse.
	line := "4242 (odd) name) S 1 4240 4240 0 -1 4194560 1174 0 0 0 250 75 3 4 20 0 1 0 12345 1 2 3\n"
	s, err := parseStat(line)
	if err != nil {
		t.Fatal(err)
	}
	if s.pid != 4242 || s.pgrp != 4240 || s.state != 'S' || s.user != 253 || s.sys != 79 || s.ticks != 332 {
		t.Fatalf("%+v", s)
	}
	for _, bad := range []string{"", "12 (x", "12 (x) S 1 2", "x (y) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"} {
		if _, err := parseStat(bad); err == nil {
			t.Errorf("parseStat(%q) accepted", bad)
		}
	}
}

// TestGroupCPUSelf: this process's own group is readable and has spent
// some CPU by now.
func TestGroupCPUSelf(t *testing.T) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Skip(err)
	}
	s, err := parseStat(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(groupAlive(s.pgrp)) == 0 {
		t.Fatalf("group %d has no live member, this process among them", s.pgrp)
	}
	if _, err := groupCPU(s.pgrp); err != nil {
		t.Fatal(err)
	}
}
