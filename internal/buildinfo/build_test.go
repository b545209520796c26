package buildinfo

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

// TestBuildString: one line, the revision cut to 12 digits and marked
// modified, the parts not recorded left out.
func TestBuildString(t *testing.T) {
	b := Build{Version: "(devel)", Revision: "0123456789abcdef", Time: "2026-11-26T20:01:00Z", Modified: true, Go: "go1.27.4", Platform: "linux/amd64"}
	if got, want := b.String(), "httpvs (devel) 0123456789ab+modified 2026-11-26T20:01:00Z go1.27.4 linux/amd64"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got, want := (Build{Version: "v1.0.0", Go: "go1.26.8", Platform: "darwin/arm64"}).String(), "httpvs v1.0.0 go1.26.8 darwin/arm64"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
