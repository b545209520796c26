//go:build unix

package procstat

import (
	"fmt"
	"syscall"
)

func raiseFileLimit() string {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return fmt.Sprintf("warning: cannot read the open-file limit: %v", err)
	}
	if rl.Cur >= rl.Max {
		return ""
	}
	rl.Cur = rl.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return fmt.Sprintf("warning: cannot raise the open-file limit to %d: %v", rl.Max, err)
	}
	return ""
}

func fileLimit() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return -1
	}
	if rl.Cur > 1<<30 {
		return 1 << 30
	}
	return int(rl.Cur)
}
