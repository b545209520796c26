//go:build !linux

package testenv

import "testing"

// HoldPorts is a no-op off Linux: the ports stay free once closed.
func HoldPorts(t testing.TB, addrs ...string) {}
