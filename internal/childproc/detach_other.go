//go:build !linux

package childproc

import "os/exec"

// Detach does nothing here: the children httpvs starts exit when their
// stdin closes.
func Detach(*exec.Cmd) {}

// KillGroup kills cmd's process.
func KillGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }
