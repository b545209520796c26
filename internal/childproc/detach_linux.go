package childproc

import (
	"os/exec"
	"syscall"
)

// Detach puts cmd's process in a group of its own, so that a terminal's
// Ctrl-C reaches only the parent (which then stops the child), and asks
// the kernel to kill it if the parent dies.
func Detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// KillGroup kills the process group of cmd, started detached: a go
// command and the compilers it started, say.
func KillGroup(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
