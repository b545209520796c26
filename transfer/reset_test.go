package transfer

import (
	"strings"
	"sync"
	"testing"

	"github.com/httpvs/httpvs/transport"
)

// resetHalfway is an upload body that resets the server's counters (as a
// POST /stats/reset from someone else would) once the upload is half sent.
type resetHalfway struct {
	size  int64
	once  sync.Once
	reset func()
}

func (r *resetHalfway) ReadAt(p []byte, off int64) (int, error) {
	if off >= r.size/2 {
		r.once.Do(r.reset)
	}
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// TestCountersResetDuringTransfer resets the server's counters halfway
// through an upload: the result has no server figures, none of them
// negative, and a note saying why.
func TestCountersResetDuringTransfer(t *testing.T) {
	f := startServer(t, 0)
	// Counters that a reset would make negative: earlier work.
	warm := f.plan(transport.H1, "/sink")
	warm.Direction, warm.Size = Upload, 1<<20
	run(t, warm)
	plan := f.plan(transport.H1, "/sink")
	plan.Direction, plan.Size = Upload, 8<<20
	plan.Body = &resetHalfway{size: 8 << 20, reset: func() { f.payload.Reset() }}
	res := run(t, plan)
	if res.Errors.Total != 0 || res.Bytes != 8<<20 {
		t.Fatalf("uploaded %d bytes with %v (%s)", res.Bytes, res.Errors, res.FirstError)
	}
	if res.Server != nil {
		t.Fatalf("server figures from snapshots that straddle a reset: %+v", res.Server.Protocols["h1"])
	}
	if !strings.Contains(res.ServerNote, "reset") {
		t.Fatalf("server note %q does not say the counters were reset", res.ServerNote)
	}
}
