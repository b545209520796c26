package transfer

import (
	"strings"
	"sync/atomic"
	"time"

	"github.com/httpvs/httpvs/transfer/transferresult"
)

// steady follows a run's body bytes over time so that the first part of
// it (handshakes, slow start) can be left out of its rate, as iperf3's
// --omit does: the bytes moved before Plan.Omit has passed since the run
// began are not counted, and the rate is over the rest, up to the last
// body byte. Its methods are safe for concurrent use; a nil *steady
// (no omit) follows nothing but the first byte.
type steady struct {
	start     time.Time
	omitAt    time.Time    // start + Plan.Omit
	total     atomic.Int64 // body bytes moved so far, every stream
	firstByte atomic.Int64 // nanoseconds since start of the first body byte; 0 before it
	lastByte  atomic.Int64 // nanoseconds since start of the latest body byte
	omitted   atomic.Int64 // total when omitAt passed; -1 before
}

// newSteady follows a run that began at start and omits its first omit.
func newSteady(start time.Time, omit time.Duration) *steady {
	s := &steady{start: start, omitAt: start.Add(omit)}
	s.omitted.Store(-1)
	return s
}

// moved records n body bytes moved (read or handed to the client) now.
func (s *steady) moved(n int) {
	if s == nil || n <= 0 {
		return
	}
	now := time.Now()
	at := max(int64(now.Sub(s.start)), 1)
	s.firstByte.CompareAndSwap(0, at)
	if s.omitted.Load() < 0 && !now.Before(s.omitAt) {
		// The first byte past the omit: the bytes before it are the
		// omitted part. Racing streams may both see -1; the first wins,
		// and the others' bytes are counted after it.
		s.omitted.CompareAndSwap(-1, s.total.Load())
	}
	s.total.Add(int64(n))
	for {
		last := s.lastByte.Load()
		if at <= last || s.lastByte.CompareAndSwap(last, at) {
			break
		}
	}
}

// fill sets res's first-byte and steady-state figures from the streams'
// outcomes. The steady part is measured only when every stream succeeded
// and bytes moved after the omit; otherwise its figures stay zero and
// SteadyNote says why. An upload's is its receiver's count (receipt), the
// sender's running ahead of it by what its buffers hold.
func (s *steady) fill(res *transferresult.Result, omit time.Duration, upload bool, outs []outcome) {
	if s == nil {
		return
	}
	if fb := s.firstByte.Load(); fb > 0 {
		res.FirstByteSeconds = time.Duration(fb).Seconds()
	}
	if omit <= 0 {
		return
	}
	res.OmitSeconds = omit.Seconds()
	omitted := s.omitted.Load()
	window := time.Duration(s.lastByte.Load()) - omit
	switch {
	case res.Errors.Total > 0 || res.Interrupted:
		res.SteadyNote = "not measured: the run did not complete"
	case upload:
		s.fillReceived(res, outs)
	case omitted < 0 || window <= 0:
		res.SteadyNote = "not measured: the transfer ended within its omitted first " + omit.String()
	default:
		res.OmittedBytes = omitted
		res.SteadyBytes = s.total.Load() - omitted
		res.SteadySeconds = window.Seconds()
	}
}

// fillReceived sets an upload's steady figures from its receiver's counts:
// the streams' bytes, over the longest stream's time (they run at once).
func (s *steady) fillReceived(res *transferresult.Result, outs []outcome) {
	var bytes int64
	var secs float64
	for _, o := range outs {
		if o.received == nil {
			res.SteadyNote = "not measured: the server did not count the upload's steady part (httpvs serve's /sink does, asked with ?omit=)"
			return
		}
		bytes += o.received.bytes
		secs = max(secs, o.received.seconds)
	}
	res.SteadyBytes, res.SteadySeconds = bytes, secs
	res.OmittedBytes = res.Bytes - bytes
}

// sinkQuery is what joins a query parameter to url: "?" or "&".
func sinkQuery(url string) string {
	if strings.Contains(url, "?") {
		return "&"
	}
	return "?"
}
