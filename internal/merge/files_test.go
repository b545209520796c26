package merge

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadFilesOnceEach reads two files and stdin, and refuses a file
// given twice, under one path or through a link, and stdin given twice.
func TestReadFilesOnceEach(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	dir := t.TempDir()
	var names []string
	for i, n := range []int{10, 20} {
		b, _ := json.Marshal(part(t, "p", rng, n, t0, 1, nil).Result)
		names = append(names, filepath.Join(dir, string(rune('a'+i))+".json"))
		if err := os.WriteFile(names[i], b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(names[0], link); err != nil {
		t.Fatal(err)
	}
	stdin, _ := json.Marshal(part(t, "s", rng, 5, t0, 1, nil).Result)
	parts, err := ReadFiles(append(names, "-"), strings.NewReader(string(stdin)))
	if err != nil || len(parts) != 3 || parts[2].Name != "stdin" || parts[1].Result.Succeeded != 20 {
		t.Fatalf("ReadFiles: %v, %d parts", err, len(parts))
	}
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{names[0], names[0]}, names[0] + " is given twice"},
		{[]string{names[0], link}, names[0] + " and " + link + " are the same file"},
		{[]string{"-", "-"}, "- (standard input) given twice"},
	} {
		if _, err := ReadFiles(c.names, strings.NewReader(string(stdin))); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.names, err, c.want)
		}
	}
}
