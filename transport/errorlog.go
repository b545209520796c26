package transport

import (
	"bytes"
	"log"
	"sync/atomic"
)

// lineCounter is a log destination that only counts lines: net/http's
// per-connection errors would flood a terminal under load, and their
// count is what a summary needs.
type lineCounter struct{ n atomic.Int64 }

func (c *lineCounter) Write(p []byte) (int, error) {
	c.n.Add(int64(bytes.Count(p, []byte("\n"))))
	return len(p), nil
}

// errorLog is the logger opts.ErrorLog names, or, when it is nil, one
// that counts the lines logged into s.connErrors.
func (s *Server) errorLog(opts ServerOptions) *log.Logger {
	if opts.ErrorLog != nil {
		return opts.ErrorLog
	}
	return log.New(&s.connErrors, "", 0)
}

// connErrorCount returns how many connection errors (failed TLS handshakes,
// resets and the like) net/http has logged since the server started, one
// per line, when ServerOptions.ErrorLog is nil; with an ErrorLog of the
// caller's they go there instead and ConnErrors is 0.
func (s *Server) connErrorCount() int64 { return s.connErrors.n.Load() }
