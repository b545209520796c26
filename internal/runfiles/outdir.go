package runfiles

import (
	"fmt"
	"io"
	"os"
)

// CheckDir makes sure, before any measuring, that a run can write its
// results under dir. A directory it had to create for the check it
// removes again, so that a run that ends before writing leaves nothing
// behind; report.WriteRun creates it for good.
func CheckDir(dir string) error {
	_, statErr := os.Stat(dir)
	created := os.IsNotExist(statErr)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create it: %w", UnwrapPath(err))
	}
	probe, err := os.CreateTemp(dir, ".httpvs-write-check-*")
	if err != nil {
		return fmt.Errorf("cannot write there: %w", UnwrapPath(err))
	}
	probe.Close()
	if err := os.Remove(probe.Name()); err != nil {
		return err
	}
	if created {
		// Only the last element: MkdirAll may have made parents too,
		// which stay (they are empty, and harmless).
		return os.Remove(dir)
	}
	return nil
}

// CheckFile makes sure, before a search that ends by writing path (tune
// --write), that it can be written: it creates path and removes it again.
func CheckFile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(path)
}

// WriteFile writes path, created or truncated, with write (tune --write's
// knob file, which CheckFile checked): an error closing it is the call's
// too.
func WriteFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// UnwrapPath drops an *os.PathError's repetition of the file name.
func UnwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
