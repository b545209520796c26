package experiment_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// program is a Go program of its own module, as a user writes one: the
// line in main, then Run with the quick preset on two transports and
// one scenario.
const program = `package main

import (
	"context"
	"fmt"
	"os"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/transport"
)

func main() {
	if experiment.ServeChild() {
		return
	}
	o := experiment.Quick()
	o.Matrix.Protocols = []transport.Protocol{transport.H1, transport.H2C}
	o.Matrix.Scenarios, _ = plan.ParseScenarios("small-sequential")
	res, err := experiment.Run(context.Background(), o)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, c := range res.Cells {
		fmt.Println(c.Scenario, c.Protocol, c.Failed, c.Median > 0)
	}
}
`

// TestProgramOfItsOwn builds a program in a module of its own (the
// module of examples/library, which CI runs whole, with this checkout
// for httpvs) and runs it with no httpvs on PATH: it measures every cell
// asked for against itself as the child server.
func TestProgramOfItsOwn(t *testing.T) {
	t.Parallel() // see TestMain
	if testing.Short() {
		t.Skip("builds a program")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mod, err := os.ReadFile(filepath.Join(root, "examples", "library", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mod = []byte(strings.Replace(string(mod), "=> ../..", "=> "+root, 1))
	sum, err := os.ReadFile(filepath.Join(root, "examples", "library", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"go.mod": mod, "go.sum": sum, "main.go": []byte(program)} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	build := exec.Command(gobin, "build", "-o", "prog", ".")
	build.Dir, build.Env = dir, append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	run := exec.Command(filepath.Join(dir, "prog"))
	run.Env = append(os.Environ(), "PATH="+t.TempDir()) // no httpvs to find
	out, err := run.Output()
	if err != nil {
		t.Fatalf("the program: %v\n%s", err, out)
	}
	if got, want := strings.TrimSpace(string(out)), "small-sequential h1 false true\nsmall-sequential h2c false true"; got != want {
		t.Errorf("the program printed\n%s\nwant\n%s", got, want)
	}
}
