package apicheck

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// layoutTables reads docs/layout.md's package tables: the first cell of
// each row, a package path in backquotes, by the section it is under.
func layoutTables(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "docs", "layout.md"))
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string][]string{}
	section := ""
	for _, line := range strings.Split(string(b), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			section = h
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) < 3 || !strings.HasPrefix(line, "| `") {
			continue
		}
		tables[section] = append(tables[section], strings.Trim(strings.TrimSpace(cells[1]), "`"))
	}
	return tables
}

// TestLayoutListsEveryPackage: go list ./... outside internal/ finds
// exactly the public packages and the commands docs/layout.md lists, and
// every internal package is listed too, so the doc says of each package
// which side it is on and why.
func TestLayoutListsEveryPackage(t *testing.T) {
	pkgs := packages(t)
	tables := layoutTables(t)
	var internal []string
	for _, path := range pkgs.All {
		if !Public(path) {
			internal = append(internal, shortPath(path))
		}
	}
	var commands []string
	for _, path := range pkgs.Commands {
		commands = append(commands, shortPath(path))
	}
	var public []string
	for _, path := range pkgs.Paths() {
		public = append(public, shortPath(path))
	}
	for _, c := range []struct {
		section string
		code    []string
	}{
		{"Public packages", public},
		{"Commands", commands},
		{"Internal packages", internal},
	} {
		doc := slices.Clone(tables[c.section])
		sort.Strings(doc)
		for _, p := range missing(c.code, doc) {
			t.Errorf("docs/layout.md, %q: %s is missing", c.section, p)
		}
		for _, p := range missing(doc, c.code) {
			t.Errorf("docs/layout.md, %q: %s is listed but go list ./... does not find it there", c.section, p)
		}
	}
}

// missing returns the elements of a not in b.
func missing(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}
