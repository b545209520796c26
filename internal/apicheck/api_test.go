package apicheck

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite api/httpvs.txt from the code")

// root is the module root, two levels above this package.
const root = "../.."

// snapshot is the committed listing of the public API.
var snapshot = filepath.Join(root, "api", "httpvs.txt")

var (
	loadOnce sync.Once
	loaded   *Packages
	loadErr  error
)

// packages loads the public packages once for all tests.
func packages(t *testing.T) *Packages {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the export data of every package (go list -export)")
	}
	loadOnce.Do(func() { loaded, loadErr = Load(root) })
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return loaded
}

// listings renders every public library package, sorted by path.
func listings(t *testing.T) []*Listing {
	t.Helper()
	pkgs := packages(t)
	var ls []*Listing
	for _, path := range pkgs.Paths() {
		ls = append(ls, Render(pkgs.Libraries[path]))
	}
	return ls
}

// TestPublicAPINamesNoPrivatePackage: a public package's exported API may
// name only public packages of the module (and other modules' packages);
// a type from internal/ in an exported signature, field or embedded
// struct would be a promise the module cannot keep, and one its users
// cannot even name.
func TestPublicAPINamesNoPrivatePackage(t *testing.T) {
	for _, l := range listings(t) {
		var bad []string
		for path, where := range l.Mentions {
			if strings.HasPrefix(path, Module+"/") && !Public(path) {
				bad = append(bad, shortPath(path)+" (first in "+where+")")
			}
		}
		sort.Strings(bad)
		for _, b := range bad {
			t.Errorf("%s's exported API names internal package %s", shortPath(l.Path), b)
		}
	}
}

// TestAPISnapshot compares the public API with api/httpvs.txt and fails
// with the difference when they differ: every exported name outside
// internal/ is a promise to the module's users, so a change to one is
// made on purpose, by regenerating the snapshot (go test
// ./internal/apicheck -run TestAPISnapshot -update) and committing it
// with the change, where review sees it. A removed or changed line
// ("-") breaks programs that use it; an added one ("+") is a new promise.
func TestAPISnapshot(t *testing.T) {
	got := Snapshot(listings(t))
	if *update {
		if err := os.MkdirAll(filepath.Dir(snapshot), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(snapshot, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(snapshot)
	if err != nil {
		t.Fatalf("%v (create it: go test ./internal/apicheck -run TestAPISnapshot -update)", err)
	}
	if d := Diff(string(want), got); d != "" {
		t.Errorf("the public API differs from api/httpvs.txt (- in the snapshot only, + in the code only):\n%s\n"+
			"if the change is meant, regenerate the snapshot and commit it with the change:\n"+
			"\tgo test ./internal/apicheck -run TestAPISnapshot -update", d)
	}
}

// apiBudget is the most top-level declarations (types, functions,
// methods, constants, variables; fields not counted) the public packages
// may hold: a new promise takes the place of an old one.
const apiBudget = 400

// TestAPIWithinBudget counts the public API's top-level declarations.
func TestAPIWithinBudget(t *testing.T) {
	n := 0
	for _, d := range declarations(Snapshot(listings(t))).list {
		if kind, _, _ := strings.Cut(d.line, " "); kind == "type" || kind == "func" || kind == "method" || kind == "const" || kind == "var" {
			n++
		}
	}
	if n > apiBudget {
		t.Errorf("the public API has %d top-level declarations, more than its budget of %d: move what only httpvs's own packages use under internal/", n, apiBudget)
	}
}
