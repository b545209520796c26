package h3

import (
	"runtime"
	"sync"

	"github.com/quic-go/quic-go"
)

// batchMax is the largest request (its HEADERS frame, no body) that is
// queued for a batch: quic-go copies a write this small at once, so the
// stream writing a batch never blocks on another's flow control.
const batchMax = 1 << 10

// writeBatch gathers the requests of one connection's streams that are
// ready at about the same time, to be written together: quic-go sends a
// connection's pending stream data whenever its loop runs, and a request
// written alone leaves in a datagram of its own (one sendmsg, on a
// goroutine woken for it), where requests written back to back by one
// goroutine share one.
type writeBatch struct {
	mu       sync.Mutex
	pending  []*Stream // queued, not yet written
	flushing bool      // a stream is yielding before it writes pending
}

// send writes s's request on str, or queues it for the stream that is
// about to write a batch. The first stream to queue yields the processor
// once before it writes them all: the other streams whose responses came
// in the same datagram (readied together, waiting to run) queue theirs
// meanwhile. A queued request's failure reaches its stream through
// unqueue.
func (b *writeBatch) send(s *Stream, str *quic.Stream) error {
	if len(s.p.request) > batchMax || len(s.p.t.Req.Body) > 0 {
		return writeRequest(s, str)
	}
	b.mu.Lock()
	s.queued, s.werr, s.wstr = true, nil, str
	b.pending = append(b.pending, s)
	if b.flushing {
		b.mu.Unlock()
		return nil
	}
	b.flushing = true
	b.mu.Unlock()
	runtime.Gosched()
	b.mu.Lock()
	for i, q := range b.pending {
		q.queued = false
		q.werr = writeRequest(q, q.wstr)
		if q.werr != nil && q != s {
			q.wstr.CancelRead(h3RequestCancelled) // its Read ends; unqueue says why
		}
		q.wstr, b.pending[i] = nil, nil
	}
	b.pending = b.pending[:0]
	b.flushing = false
	err := s.werr
	b.mu.Unlock()
	return err
}

// unqueue is called by a stream whose exchange failed after send: it
// takes its request out of the batch if it is still there, and returns
// the error writing it met, if any (err otherwise).
func (b *writeBatch) unqueue(s *Stream, err error) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if s.queued {
		s.queued, s.wstr = false, nil
		for i, q := range b.pending {
			if q == s {
				b.pending = append(b.pending[:i], b.pending[i+1:]...)
				break
			}
		}
		return err
	}
	if s.werr != nil {
		return s.werr
	}
	return err
}

// writeRequest writes the client's request on str and closes its sending
// side; a failed write cancels it (else the stream would stay open).
func writeRequest(s *Stream, str *quic.Stream) error {
	_, err := str.Write(s.p.request)
	if body := s.p.t.Req.Body; err == nil && len(body) > 0 {
		_, err = str.Write(body)
	}
	if err != nil {
		str.CancelWrite(h3RequestCancelled)
		return err
	}
	_ = str.Close() // fails only for a stream already reset, which Read reports
	return nil
}
