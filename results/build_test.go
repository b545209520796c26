package results

import (
	"runtime"
	"testing"
)

// TestReadBuild: a test binary has build information: its toolchain, the
// platform, and the version Env records.
func TestReadBuild(t *testing.T) {
	b := ReadBuild()
	if b.Go != runtime.Version() || b.Platform != runtime.GOOS+"/"+runtime.GOARCH || b.Version == "" || b.Version == "(unknown)" {
		t.Fatalf("build %+v", b)
	}
	if e := CurrentEnv(); e.Version != b.Version || e.Commit != b.Revision || e.Modified != b.Modified {
		t.Errorf("env %q %q %v, build %+v", e.Version, e.Commit, e.Modified, b)
	}
}
