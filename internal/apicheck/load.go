// Package apicheck lists the exported API of the module's public packages
// (every package outside internal/ that is not a command) as text, and
// names the packages that text mentions. Its tests keep api/httpvs.txt,
// the committed snapshot of that surface, and docs/layout.md's list of
// public packages in step with the code.
//
// The listing is read from the compiler's export data (go list -export),
// so it needs the go command and nothing beyond the standard library.
package apicheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
)

// Module is the module path whose packages are listed.
const Module = "github.com/httpvs/httpvs"

// listed is one package as go list -json reports it.
type listed struct {
	ImportPath string
	Name       string
	Export     string
	Standard   bool
	DepOnly    bool
}

// Public reports whether a package of the module is outside internal/.
func Public(path string) bool {
	rel := strings.TrimPrefix(path, Module)
	return !strings.Contains(rel+"/", "/internal/")
}

// Packages holds the type-checked public library packages of the module,
// by import path, and the names of its public commands.
type Packages struct {
	Libraries map[string]*types.Package
	Commands  []string
	// All is every package of the module, internal ones included, sorted.
	All []string
}

// Load runs go list -export in dir (the module root) and reads the
// public packages' types from their export data.
func Load(dir string) (*Packages, error) {
	cmd := exec.Command("go", "list", "-export", "-deps", "-json=ImportPath,Name,Export,Standard,DepOnly", "./...")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export: %w: %s", err, stderr.String())
	}
	exports := map[string]string{}
	var (
		roots []listed
		all   []string
	)
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("go list -export output: %w", err)
		}
		exports[p.ImportPath] = p.Export
		if !p.DepOnly {
			all = append(all, p.ImportPath)
		}
		if !p.DepOnly && Public(p.ImportPath) {
			roots = append(roots, p)
		}
	}
	lookup := func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	}
	imp := importer.ForCompiler(token.NewFileSet(), "gc", lookup)
	sort.Strings(all)
	pkgs := &Packages{Libraries: map[string]*types.Package{}, All: all}
	for _, p := range roots {
		if p.Name == "main" {
			pkgs.Commands = append(pkgs.Commands, p.ImportPath)
			continue
		}
		tp, err := imp.Import(p.ImportPath)
		if err != nil {
			return nil, fmt.Errorf("import %s: %w", p.ImportPath, err)
		}
		pkgs.Libraries[p.ImportPath] = tp
	}
	sort.Strings(pkgs.Commands)
	return pkgs, nil
}

// Paths returns the import paths of the public library packages, sorted.
func (p *Packages) Paths() []string {
	paths := make([]string, 0, len(p.Libraries))
	for path := range p.Libraries {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	return paths
}
