//go:build race

package matrix

// raceBuild says the tests run under the race detector.
const raceBuild = true
