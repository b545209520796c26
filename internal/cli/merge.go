package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/httpvs/httpvs/internal/merge"
	"github.com/httpvs/httpvs/internal/render"
	"github.com/httpvs/httpvs/report"
)

// mergedJSON is what merge --json prints.
type mergedJSON = merge.Record

// runMerge combines load results from several generators into one.
func runMerge(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "merge", "FILE... (load --json results; - reads standard input)")
	asJSON := fs.Bool("json", false, "print exactly one JSON object: the merged result, which merge reads again")
	pos, err := fs.Parse(args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("merge takes the files of httpvs load --json results (or - for standard input), e.g. httpvs merge a.json b.json")
	}
	parts, err := readParts(pos)
	if err != nil {
		return err
	}
	m, err := merge.Merge(parts)
	if err != nil {
		return usagef("%v", err)
	}
	if !*asJSON {
		return render.Merge(e.stdout, parts, m)
	}
	for _, w := range m.Warnings {
		fmt.Fprintf(e.stderr, "httpvs merge: warning: %s\n", w.Text)
	}
	return report.JSON(e.stdout, merge.NewRecord(parts, m))
}

// readParts reads every named file ("-" is standard input, once). A file
// named twice, under one path or two, is refused before it is read: its
// run would be counted twice.
func readParts(names []string) ([]merge.Part, error) {
	var parts []merge.Part
	stdin := false
	seen := map[string]os.FileInfo{}
	for _, name := range names {
		var r io.Reader
		if name == "-" {
			if stdin {
				return nil, usagef("merge: - (standard input) given twice")
			}
			stdin, name, r = true, "stdin", os.Stdin
		} else {
			f, err := os.Open(name)
			if err != nil {
				return nil, usagef("%v", err)
			}
			defer f.Close()
			if err := sameFile(seen, name, f); err != nil {
				return nil, err
			}
			r = f
		}
		p, err := merge.Read(name, r)
		if err != nil {
			return nil, usagef("%v", err)
		}
		parts = append(parts, p...)
	}
	return parts, nil
}

// sameFile refuses f, opened as name, when it is a file already in seen
// (by name), and adds it.
func sameFile(seen map[string]os.FileInfo, name string, f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return usagef("%v", err)
	}
	for prev, pfi := range seen {
		if os.SameFile(fi, pfi) {
			if prev == name {
				return usagef("%s is given twice: merging a run with itself would double its counts", name)
			}
			return usagef("%s and %s are the same file: merging a run with itself would double its counts", prev, name)
		}
	}
	seen[name] = fi
	return nil
}
