//go:build race

package server

// raceBuild says the tests run under the race detector.
const raceBuild = true
