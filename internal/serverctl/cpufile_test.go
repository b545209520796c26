package serverctl

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestStartCPUFile: the profile lands in the file, gzipped as pprof
// writes it, once stopped; a file that cannot be made is an error, and
// no profile is left running.
func TestStartCPUFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := StartCPUFile(filepath.Join(dir, "absent", "cpu.pprof")); err == nil {
		t.Fatal("a file in a missing directory: no error")
	}
	path := filepath.Join(dir, "cpu.pprof")
	stop, err := StartCPUFile(path)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	b, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		t.Fatalf("profile: %d bytes, %v; want a gzipped pprof profile", len(b), err)
	}
}
