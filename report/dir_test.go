package report

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestWriteRun: a run's directory holds its four files, named by its
// start; a second run started the same second gets name-2; the report.md
// written is the one Markdown renders.
func TestWriteRun(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "out") // created on demand
	res := sampleRun()
	first, err := WriteRun(parent, res)
	if err != nil {
		t.Fatal(err)
	}
	second, err := WriteRun(parent, res)
	if err != nil {
		t.Fatal(err)
	}
	name := res.Started.Local().Format("20060102-150405")
	if first != filepath.Join(parent, name) || second != filepath.Join(parent, name+"-2") {
		t.Fatalf("directories %s and %s, want %s and its -2", first, second, name)
	}
	if got := names(t, first); !slices.Equal(got, []string{"bench.txt", "report.html", "report.md", "results.json"}) {
		t.Fatalf("files %v", got)
	}
	md, err := os.ReadFile(filepath.Join(first, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := Markdown(&want, res); err != nil {
		t.Fatal(err)
	}
	if string(md) != want.String() {
		t.Fatal("report.md differs from Markdown's rendering")
	}
	f, err := os.Open(filepath.Join(first, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	back, err := results.ReadJSON(f)
	if err != nil || len(back.Cells) != len(res.Cells) {
		t.Fatalf("results.json read back: %v, %d cells of %d", err, len(back.Cells), len(res.Cells))
	}
}

// TestWriteDirStopsAtARenderError: a file that fails to render is not
// written, nor are the files after it, and the error names it.
func TestWriteDirStopsAtARenderError(t *testing.T) {
	broken := errors.New("broken")
	ok := func(w io.Writer) error { _, err := io.WriteString(w, "ok"); return err }
	dir, err := WriteDir(t.TempDir(), "x", []File{
		{"a.txt", ok},
		{"b.txt", func(w io.Writer) error { io.WriteString(w, "half"); return broken }},
		{"c.txt", ok},
	})
	if !errors.Is(err, broken) || err.Error() != "render b.txt: broken" {
		t.Fatalf("%v", err)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"a.txt"}) {
		t.Fatalf("files %v, want a.txt alone", got)
	}
	if _, err := WriteWhen(t.TempDir(), nil); err == nil {
		t.Fatal("WriteWhen with no runs: no error")
	}
}

// names lists dir's files, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}
