//go:build measured && race

package experiment_test

// raceBuild says the tests run under the race detector.
const raceBuild = true
