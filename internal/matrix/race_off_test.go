//go:build !race

package matrix

import ()

// raceBuild says the tests run under the race detector.
const raceBuild = false
