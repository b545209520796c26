package goversions

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Installed is the version name for the go command on PATH, as it is.
const Installed = "installed"

// OldestMinor is the oldest Go minor release the embedded program builds
// with (go1.22: its go.mod's go line, and the range-over-int and loop
// variable semantics it is written for).
const OldestMinor = 22

// MaxVersions is the most toolchains one run compares.
const MaxVersions = 12

// VersionError says why a listed version is not one Run can take.
type VersionError struct {
	Value  string // as listed
	Reason string // what is wrong, and what to write
}

func (e *VersionError) Error() string { return fmt.Sprintf("go version %q: %s", e.Value, e.Reason) }

// release matches a Go release name without its "go" prefix: 1.24.13,
// 1.25rc1, 1.26.0.
var release = regexp.MustCompile(`^1\.(\d+)(\.\d+|rc\d+)$`)

// ParseVersion reads one version: Installed, or a release as 1.24.13 or
// go1.24.13 (release candidates as 1.25rc1). It returns Installed or the
// toolchain name ("go1.24.13").
func ParseVersion(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == Installed {
		return s, nil
	}
	bare := strings.TrimPrefix(s, "go")
	m := release.FindStringSubmatch(bare)
	if m == nil {
		reason := "want installed or a Go release such as 1.24.13 or go1.27.4"
		if regexp.MustCompile(`^1\.\d+$`).MatchString(bare) {
			reason = fmt.Sprintf("name a release, such as %s.0: go%s is a language version, not a toolchain", bare, bare)
		}
		return "", &VersionError{Value: s, Reason: reason}
	}
	if minor, _ := strconv.Atoi(m[1]); minor < OldestMinor {
		return "", &VersionError{Value: s, Reason: fmt.Sprintf("older than go1.%d, the oldest release the embedded program builds with", OldestMinor)}
	}
	return "go" + bare, nil
}

// ParseVersions reads a comma-separated list of versions (ParseVersion),
// refusing an empty list, one named twice, and more than MaxVersions.
func ParseVersions(list string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, item := range strings.Split(list, ",") {
		if strings.TrimSpace(item) == "" {
			return nil, &VersionError{Value: list, Reason: "want a comma-separated list such as installed,1.27.4, without empty items"}
		}
		v, err := ParseVersion(item)
		if err != nil {
			return nil, err
		}
		if seen[v] {
			return nil, &VersionError{Value: item, Reason: "listed twice"}
		}
		seen[v] = true
		out = append(out, v)
	}
	if len(out) > MaxVersions {
		return nil, &VersionError{Value: list, Reason: fmt.Sprintf("%d versions: at most %d in one run", len(out), MaxVersions)}
	}
	return out, nil
}

// goLine is the go.mod go line for a toolchain: its own version, so that
// the program gets the GODEBUG defaults that release ships with; the
// oldest supported release for a name that is not a release (a devel
// toolchain).
func goLine(toolchain string) string {
	bare := strings.TrimPrefix(toolchain, "go")
	if release.MatchString(bare) {
		return bare
	}
	return fmt.Sprintf("1.%d", OldestMinor)
}
