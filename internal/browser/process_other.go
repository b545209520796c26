//go:build !linux

package browser

import "os/exec"

// ownGroup leaves cmd as it is: process groups and Pdeathsig are Linux's.
func ownGroup(*exec.Cmd) {}

// killGroup kills the browser's own process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}

// killLeftovers does nothing: only Linux has /proc to look in.
func killLeftovers(string) {}

// Running returns nothing: only Linux has /proc to look in.
func Running(string) []int { return nil }
