//go:build !linux

package goversions

import "os/exec"

// detach does nothing here: the child ends when its stdin closes, or
// after its -max lifetime.
func detach(cmd *exec.Cmd) {}

// killGroup kills cmd's process.
func killGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }
