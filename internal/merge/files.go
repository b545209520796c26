package merge

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ReadFiles reads the load results in every named file ("-" is stdin,
// once, named "stdin"). A file named twice, under one path or two, is
// refused before it is read: its run would be counted twice.
func ReadFiles(names []string, stdin io.Reader) ([]Part, error) {
	var parts []Part
	seenStdin := false
	seen := map[string]os.FileInfo{}
	for _, name := range names {
		var r io.Reader
		if name == "-" {
			if seenStdin {
				return nil, errors.New("merge: - (standard input) given twice")
			}
			seenStdin, name, r = true, "stdin", stdin
		} else {
			f, err := os.Open(name)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			if err := sameFile(seen, name, f); err != nil {
				return nil, err
			}
			r = f
		}
		p, err := Read(name, r)
		if err != nil {
			return nil, err
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
		return err
	}
	for prev, pfi := range seen {
		if os.SameFile(fi, pfi) {
			if prev == name {
				return fmt.Errorf("%s is given twice: merging a run with itself would double its counts", name)
			}
			return fmt.Errorf("%s and %s are the same file: merging a run with itself would double its counts", prev, name)
		}
	}
	seen[name] = fi
	return nil
}
