//go:build !measured

package server

// measuredBuild says the measured checks run (see measured_on_test.go).
const measuredBuild = false
