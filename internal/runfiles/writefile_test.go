package runfiles

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFile: what write writes is the file's content; write's error
// is the call's, and so is a path that cannot be created.
func TestWriteFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knobs.json")
	err := WriteFile(path, func(w io.Writer) error {
		_, err := io.WriteString(w, "{}\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "{}\n" {
		t.Fatalf("%q, %v", b, err)
	}
	failed := errors.New("render failed")
	if err := WriteFile(path, func(io.Writer) error { return failed }); !errors.Is(err, failed) {
		t.Errorf("write's error: got %v", err)
	}
	if err := WriteFile(filepath.Join(path, "under-a-file"), func(io.Writer) error { return nil }); err == nil {
		t.Error("a path under a file: no error")
	}
}
