//go:build !linux

package experiment

import "os/exec"

// detach does nothing here: the child exits when its stdin closes.
func detach(*exec.Cmd) {}
