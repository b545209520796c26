//go:build !linux

package cli

import "os/exec"

// detach does nothing here: the child exits when its stdin closes.
func detach(*exec.Cmd) {}
