//go:build measured && !race

package linktest

// raceBuild says the tests run under the race detector.
const raceBuild = false
