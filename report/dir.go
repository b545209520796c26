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

// dirFile is one file of a results directory: its name and what renders it.
type dirFile struct {
	Name   string
	Render func(io.Writer) error
}

// runFiles are the files of a run's results directory, as `httpvs run`
// writes them: results.json, report.md, report.html and bench.txt (for
// benchstat); a run across Go versions (res.GoVersions) has no bench.txt
// and reports by toolchain.
func runFiles(res *results.Results) []dirFile {
	files := []dirFile{
		{"results.json", res.WriteJSON},
		{"report.md", func(w io.Writer) error { return Markdown(w, res) }},
		{"report.html", func(w io.Writer) error { return HTML(w, res) }},
	}
	if res.GoVersions != nil {
		return files
	}
	return append(files, dirFile{"bench.txt", func(w io.Writer) error { return Benchstat(w, res) }})
}

// capacityFiles are the files of a capacity search's results directory,
// as `httpvs run --slo` writes them: capacity.json (results.CapacityFile
// of c and notRun) and report.md, a heading with the objective and began
// (UTC) over the text Capacity writes, in a code block.
func capacityFiles(c *results.Capacity, notRun []results.NotRun, began time.Time) []dirFile {
	file := results.CapacityFile{Capacity: c, NotRun: notRun}
	return []dirFile{
		{"capacity.json", file.WriteJSON},
		{"report.md", func(w io.Writer) error { return capacityMarkdown(w, c, notRun, began) }},
	}
}

// whenFiles are the files of the verdict across runs' links: when.md and
// when.html.
func whenFiles(runs []*results.Results) []dirFile {
	return []dirFile{
		{"when.md", func(w io.Writer) error { return WhenMarkdown(w, runs) }},
		{"when.html", func(w io.Writer) error { return whenHTML(w, runs) }},
	}
}

// WriteRun writes runFiles(res) to a new directory under parent named by
// the run's start, local time ("20060102-150405"), and returns its path.
func WriteRun(parent string, res *results.Results) (string, error) {
	return writeDir(parent, res.Started.Local().Format("20060102-150405"), runFiles(res))
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
func writeDir(parent, name string, files []dirFile) (string, error) {
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
	return dir, writeFiles(dir, files)
}

// writeFiles renders each of files into dir.
func writeFiles(dir string, files []dirFile) error {
	for _, file := range files {
		var buf bytes.Buffer
		if err := file.Render(&buf); err != nil {
			return fmt.Errorf("render %s: %w", file.Name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, file.Name), buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("write results: %w", err)
		}
	}
	return nil
}

// WriteHistory writes cells' ratios across runs, in order, into dir (made
// when missing): history.svg, the picture, and history.html, a page that
// embeds it.
func WriteHistory(dir string, runs []*results.Results, cells []HistoryCell) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return writeFiles(dir, []dirFile{
		{"history.svg", func(w io.Writer) error { return historySVG(w, runs, cells) }},
		{"history.html", func(w io.Writer) error { return historyHTML(w, runs, cells) }},
	})
}
