package render

import (
	"fmt"
	"io"
	"time"

	"github.com/httpvs/httpvs/tune/tuneresult"
	"github.com/httpvs/httpvs/units"
)

// TuneProgress returns a tune.Options.Progress that rewrites one
// terminal line on w with the seconds since the search began and the
// settings being measured.
func TuneProgress(w io.Writer) func(string, tuneresult.Settings) {
	start := time.Now()
	return func(p string, s tuneresult.Settings) {
		fmt.Fprintf(w, "\r\033[K%5.1fs  %s  read %s frame %s window %s write %s",
			time.Since(start).Seconds(), p, s.ReadSize, orDefault(s.MaxReadFrameSize), orDefault(s.StreamWindow+s.QUICStreamWindow), s.WriteSize)
	}
}

// orDefault is a size, or "default" for zero, as package report says it.
func orDefault(b units.Bytes) string {
	if b == 0 {
		return "default"
	}
	return b.String()
}
