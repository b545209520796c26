package buildinfo

import (
	"runtime"
	"runtime/debug"
)

// Build is what a binary says of itself (runtime/debug's build
// information): `httpvs version --json` prints it, and Env records its
// version and revision.
type Build struct {
	Version  string `json:"version"`            // module version; "(devel)" for a build from a checkout, "(unknown)" without build information
	Revision string `json:"revision,omitempty"` // VCS revision
	Time     string `json:"time,omitempty"`     // VCS commit time, RFC 3339
	Modified bool   `json:"modified"`           // built from a tree with uncommitted changes
	Go       string `json:"go"`                 // the Go toolchain that built it
	Platform string `json:"platform"`           // GOOS/GOARCH
	// Modules are the modules built in besides the main one, by path, at
	// the version built (a replacement's, where go.mod replaces one;
	// "(devel)" for a directory): "github.com/quic-go/quic-go":
	// "v0.65.0". A test binary has none.
	Modules map[string]string `json:"modules,omitempty"`
}

// ReadBuild reads this binary's build information: the one reader of it
// (runtime/debug.ReadBuildInfo) in httpvs.
func ReadBuild() Build {
	info, _ := debug.ReadBuildInfo()
	return buildOf(info)
}

// buildOf is ReadBuild from info; nil is a binary without build
// information.
func buildOf(info *debug.BuildInfo) Build {
	b := Build{Version: "(unknown)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if info == nil {
		return b
	}
	b.Version, b.Go = info.Main.Version, info.GoVersion
	for _, d := range info.Deps {
		v := d.Version
		if d.Replace != nil {
			v = d.Replace.Version
		}
		if v == "" { // replaced by a directory
			v = "(devel)"
		}
		if b.Modules == nil {
			b.Modules = map[string]string{}
		}
		b.Modules[d.Path] = v
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// String is the build on one line, as `httpvs version` prints it: the
// module version, the VCS revision's first 12 digits (+modified for a
// tree with uncommitted changes) and time when recorded, the toolchain
// and the platform.
func (b Build) String() string {
	v := "httpvs " + b.Version
	if b.Revision != "" {
		v += " " + b.Revision[:min(12, len(b.Revision))]
		if b.Modified {
			v += "+modified"
		}
	}
	if b.Time != "" {
		v += " " + b.Time
	}
	return v + " " + b.Go + " " + b.Platform
}
