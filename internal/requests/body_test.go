package requests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadBody: a file is read whole; a directory and a missing file are
// refused with what is wrong, and without the file's name, which the
// caller says.
func TestReadBody(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "body")
	if err := os.WriteFile(name, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if body, err := ReadBody(name); err != nil || string(body) != "hello" {
		t.Fatalf("%q, %v", body, err)
	}
	for bad, want := range map[string]string{dir: "cannot read it: not a regular file", filepath.Join(dir, "absent"): "no such file or directory"} {
		_, err := ReadBody(bad)
		if err == nil || err.Error() != want || strings.Contains(err.Error(), dir) {
			t.Errorf("%s: %v, want %q", bad, err, want)
		}
	}
}
