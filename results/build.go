package results

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
}

// ReadBuild reads this binary's build information.
func ReadBuild() Build {
	b := Build{Version: "(unknown)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	b.Version, b.Go = info.Main.Version, info.GoVersion
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
