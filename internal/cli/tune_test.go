package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTuneRefusalLeavesNoKnobFile: a search the library refuses (a
// --budget below its 1s) exits 2 in one line naming the flag, and leaves
// no empty --write file behind.
func TestTuneRefusalLeavesNoKnobFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "knobs.json")
	code, _, stderr := runMain(t, "tune", "--budget", "10ms", "--write", file)
	if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--budget 10ms: want 1s to 24h") {
		t.Fatalf("exit %d, stderr %q: want 2 and one line naming --budget", code, stderr)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("--write file left behind: %v", err)
	}
}
