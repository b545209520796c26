package httpvstest_test

import (
	"os"
	"strings"
	"testing"
)

// TestGotestDocExample: the example docs/gotest.md shows is the one
// docexample_test.go compiles, so that what users copy builds.
func TestGotestDocExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/gotest.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "```go\n")
	block, _, closed := strings.Cut(block, "```\n")
	if !ok || !closed {
		t.Fatal("docs/gotest.md has no ```go block")
	}
	src, err := os.ReadFile("docexample_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, code, _ := strings.Cut(string(src), "\npackage ")
	want := strings.Replace(block, "package mypkg_test\n", "package httpvstest_test\n", 1)
	if got := "package " + code; got != want {
		t.Errorf("docs/gotest.md's example and docexample_test.go differ:\n--- docs/gotest.md\n%s\n--- docexample_test.go\n%s", want, got)
	}
}
