package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/httpvs/httpvs/results"
)

// File is one file of a results directory: its name and what renders it.
type File struct {
	Name   string
	Render func(io.Writer) error
}

// RunFiles are the files of a run's results directory, as `httpvs run`
// writes them: results.json, report.md, report.html and bench.txt (for
// benchstat); a run across Go versions (res.GoVersions) has no bench.txt
// and reports by toolchain.
func RunFiles(res *results.Results) []File {
	files := []File{
		{"results.json", res.WriteJSON},
		{"report.md", func(w io.Writer) error { return Markdown(w, res) }},
		{"report.html", func(w io.Writer) error { return HTML(w, res) }},
	}
	if res.GoVersions != nil {
		return files
	}
	return append(files, File{"bench.txt", func(w io.Writer) error { return Benchstat(w, res) }})
}

// capacityFiles are the files of a capacity search's results directory,
// as `httpvs run --slo` writes them: capacity.json (results.CapacityFile
// of c and notRun) and report.md, a heading with the objective and began
// (UTC) over the text Capacity writes, in a code block.
func capacityFiles(c *results.Capacity, notRun []results.NotRun, began time.Time) []File {
	file := results.CapacityFile{Capacity: c, NotRun: notRun}
	return []File{
		{"capacity.json", file.WriteJSON},
		{"report.md", func(w io.Writer) error { return capacityMarkdown(w, c, notRun, began) }},
	}
}

// whenFiles are the files of the verdict across runs' links: when.md and
// when.html.
func whenFiles(runs []*results.Results) []File {
	return []File{
		{"when.md", func(w io.Writer) error { return WhenMarkdown(w, runs) }},
		{"when.html", func(w io.Writer) error { return whenHTML(w, runs) }},
	}
}

// WriteRun writes RunFiles(res) to a new directory under parent named by
// the run's start, local time ("20060102-150405"), and returns its path.
func WriteRun(parent string, res *results.Results) (string, error) {
	return writeDir(parent, res.Started.Local().Format("20060102-150405"), RunFiles(res))
}

// WriteCapacity writes capacityFiles(c, notRun, began) to a new directory
// under parent named by began, local time ("20060102-150405"), and
// returns its path.
func WriteCapacity(parent string, c *results.Capacity, notRun []results.NotRun, began time.Time) (string, error) {
	return writeDir(parent, began.Local().Format("20060102-150405"), capacityFiles(c, notRun, began))
}

// WriteWhen writes the verdict across runs' links (when.md, as
// WhenMarkdown writes it, and when.html) to a new directory under parent
// named by the first run's start and "-when", beside the runs' own directories,
// and returns its path; runs must not be empty.
func WriteWhen(parent string, runs []*results.Results) (string, error) {
	if len(runs) == 0 {
		return "", fmt.Errorf("report: no runs to write a verdict across links for")
	}
	return writeDir(parent, runs[0].Started.Local().Format("20060102-150405")+"-when", whenFiles(runs))
}

// writeDir makes a new directory parent/name (parent/name-2, -3 and so on
// when it is taken), renders each of files into it and returns its path.
// A file is written only when it rendered whole; the first error stops.
func writeDir(parent, name string, files []File) (string, error) {
	dir := filepath.Join(parent, name)
	for i := 2; ; i++ {
		if _, err := os.Stat(dir); os.IsNotExist(err) {
			break
		}
		dir = filepath.Join(parent, fmt.Sprintf("%s-%d", name, i))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("results directory: %w", err)
	}
	for _, file := range files {
		var buf bytes.Buffer
		if err := file.Render(&buf); err != nil {
			return dir, fmt.Errorf("render %s: %w", file.Name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, file.Name), buf.Bytes(), 0o644); err != nil {
			return dir, fmt.Errorf("write results: %w", err)
		}
	}
	return dir, nil
}
