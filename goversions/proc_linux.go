package goversions

import (
	"os/exec"
	"syscall"
)

// detach puts the child in a process group of its own, so that a
// terminal's Ctrl-C reaches only httpvs (which then stops it), and asks
// the kernel to kill it if httpvs dies.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills cmd's process group (cmd was started detached): the go
// command and the compilers it started.
func killGroup(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
