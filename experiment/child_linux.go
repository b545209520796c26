package experiment

import (
	"os/exec"
	"syscall"
)

// detach puts the child in its own process group, so that a terminal's
// Ctrl-C reaches only the parent (which then stops the child), and asks the
// kernel to kill the child if the parent dies.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
