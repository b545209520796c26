package results

import (
	"maps"
	"runtime"
	"runtime/debug"
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

// TestBuildModules: the modules built in, by their own path, at the
// version built: a replacement's where go.mod replaces one, "(devel)" for
// a directory; none without build information.
func TestBuildModules(t *testing.T) {
	b := buildOf(&debug.BuildInfo{GoVersion: "go1.27.4", Main: debug.Module{Version: "v1.2.3"}, Deps: []*debug.Module{
		{Path: "github.com/quic-go/quic-go", Version: "v0.57.1"},
		{Path: "golang.org/x/net", Version: "v0.40.0", Replace: &debug.Module{Path: "example.com/net", Version: "v0.41.0"}},
		{Path: "google.golang.org/grpc", Version: "v1.70.0", Replace: &debug.Module{Path: "../grpc"}},
	}})
	want := map[string]string{"github.com/quic-go/quic-go": "v0.57.1", "golang.org/x/net": "v0.41.0", "google.golang.org/grpc": "(devel)"}
	if b.Version != "v1.2.3" || b.Go != "go1.27.4" || !maps.Equal(b.Modules, want) {
		t.Errorf("build %+v, want modules %v", b, want)
	}
	if b := buildOf(nil); b.Version != "(unknown)" || b.Modules != nil {
		t.Errorf("no build information: %+v", b)
	}
}
