package apicheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoPath is a path under one of the repository's top-level directories
// as the docs name it: "internal/cli/flagset/knobs.go", "docs/knobs.md",
// ".ci/run".
var repoPath = regexp.MustCompile("(?:^|[\\s`(\\[])((?:\\.ci|api|bench|cmd|config|deploy|docs|examples|experiment|httpvstest|internal|load|netem|plan|report|results|scripts|server|stats|transfer|transport|tune|units|webpage)/[A-Za-z0-9_./-]*[A-Za-z0-9_])")

// TestDocsNamePathsThatExist: every path CONTRIBUTING.md and
// docs/layout.md name, a file or a package directory, exists: a new peer
// reading where a change goes is never sent to a file that went.
func TestDocsNamePathsThatExist(t *testing.T) {
	for _, doc := range []string{"CONTRIBUTING.md", filepath.Join("docs", "layout.md")} {
		b, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range repoPath.FindAllStringSubmatch(string(b), -1) {
			p := strings.TrimSuffix(m[1], ".")
			if _, err := os.Stat(filepath.Join(root, p)); err != nil {
				t.Errorf("%s names %s, which does not exist", doc, p)
			}
			n++
		}
		if n == 0 {
			t.Errorf("%s names no path: the pattern reads nothing", doc)
		}
	}
}
