//go:build race

package cli

// raceBuild says the tests run under the race detector.
const raceBuild = true
