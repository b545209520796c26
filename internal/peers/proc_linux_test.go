package peers

import (
	"os"
	"syscall"
	"testing"
)

// TestGroupCPUSelf: this process's own group is readable and has spent
// some CPU by now.
func TestGroupCPUSelf(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip(err)
	}
	pgrp := syscall.Getpgrp()
	if len(groupAlive(pgrp)) == 0 {
		t.Fatalf("group %d has no live member, this process among them", pgrp)
	}
	if _, err := groupCPU(pgrp); err != nil {
		t.Fatal(err)
	}
}
