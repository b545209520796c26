package cli

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// profiled is the one profiled run TestProfiles and TestExplain share:
// download over h1 and h2c, five rounds so the verdict has an interval to
// call h2c slower by, each cell profiled in rounds of its own. Its knobs
// are the tuned set's, so that no tuned rows (download:tuned, measured
// beside Go as shipped) double its cells and profiling rounds; h2c is as
// clearly slower there. It lives in a directory of its own, removed when
// the tests end (TestMain).
var profiled struct {
	once             sync.Once
	base, dir, out   string
	code             int
	stderr, mkdirErr string
}

// profiledRun runs the shared profiled run once, and returns its profile
// directory and its results directory's parent, failing the test if the
// run failed.
func profiledRun(t *testing.T) (dir, out string) {
	t.Helper()
	if testing.Short() {
		t.Skip("a profiled run: not under -short")
	}
	profiled.once.Do(func() {
		base, err := os.MkdirTemp("", "httpvs-profiled-")
		if err != nil {
			profiled.mkdirErr = err.Error()
			return
		}
		profiled.base, profiled.dir, profiled.out = base, filepath.Join(base, "profiles"), filepath.Join(base, "out")
		profiled.code, _, profiled.stderr = runMain(t, "run", "--quick", "--repeat", "5", "--duration", "400ms", "--out", profiled.out,
			"--scenarios", "download", "--protocols", "h1,h2c", "--knobs", "tuned", "--profile", profiled.dir)
	})
	if profiled.mkdirErr != "" {
		t.Fatal(profiled.mkdirErr)
	}
	if profiled.code != 0 {
		t.Fatalf("run: exit %d: %s", profiled.code, profiled.stderr)
	}
	return profiled.dir, profiled.out
}

// removeProfiledRun removes the shared profiled run's directory, if made.
func removeProfiledRun() {
	if profiled.base != "" {
		os.RemoveAll(profiled.base)
	}
}
