package testenv

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Waiting is how many parallel tests such a package runs at once unless
// -parallel is given.
const Waiting = 4

// RaiseParallel sets -test.parallel to n, or GOMAXPROCS when more,
// unless the command line gave -parallel; call it before m.Run. go
// test's default, GOMAXPROCS, fits tests that compute: on two cores it
// runs two tests that each wait a second on a silent server one after
// the other while the cores idle.
func RaiseParallel(n int) {
	n = max(n, runtime.GOMAXPROCS(0))
	if !flag.Parsed() {
		flag.Parse()
	}
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", strconv.Itoa(n)); err != nil {
			panic("testmain: " + err.Error()) // testing registers it before TestMain
		}
	}
}

// QuickChildExits makes the children the tests start (this test binary
// re-executed as a server or as the command, built with -race as it is)
// exit at once: the race runtime sleeps atexit_sleep_ms (1000 by
// default) at a clean exit while other goroutines live, so that their
// reports may still print, and a test that waits for its child's exit
// waits that second for nothing. Races found before the exit are still
// reported and still fail the child (exit status 66). A GORACE that sets
// atexit_sleep_ms is kept.
func QuickChildExits() {
	g := os.Getenv("GORACE")
	if !strings.Contains(g, "atexit_sleep_ms") {
		os.Setenv("GORACE", strings.TrimSpace(g+" atexit_sleep_ms=0"))
	}
}
