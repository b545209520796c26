package requests

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/httpvs/httpvs/internal/runfiles"
	"github.com/httpvs/httpvs/units"
)

// OpenBody opens a request body's file, as curl's @FILE names it: a
// regular file that can be read. It returns the file with its size; its
// errors leave out the file's name, which the caller says.
func OpenBody(name string) (*os.File, units.Bytes, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, 0, runfiles.UnwrapPath(err)
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = errors.New("not a regular file")
	}
	if err == nil && fi.Size() > 0 {
		_, err = f.ReadAt(make([]byte, 1), 0)
	}
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("cannot read it: %v", runfiles.UnwrapPath(err))
	}
	return f, units.Bytes(fi.Size()), nil
}

// ReadBody reads a request body's file (OpenBody) whole, for a body sent
// many times: up to 1Gi, the most load.Config.BodySize takes.
func ReadBody(name string) ([]byte, error) {
	f, size, err := OpenBody(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > units.GiB {
		return nil, fmt.Errorf("%v bytes, above the 1Gi a request body may have here", int64(size))
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(f, body); err != nil {
		return nil, fmt.Errorf("cannot read it: %v", err)
	}
	return body, nil
}
