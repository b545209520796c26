package h3

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

// Stream is one worker's requests over HTTP/3, one at a time, each on a
// new QUIC stream of the pool's connection. It keeps one read buffer, one
// response parser and one timer for all of them: a request allocates
// nothing here (quic-go allocates its stream).
type Stream struct {
	ctx  context.Context
	p    *Client
	buf  []byte
	resp h3Response

	timer *time.Timer // expire, armed for each request

	// Its request in its connection's writeBatch; guarded by the batch's mu.
	queued bool         // waiting to be written
	wstr   *quic.Stream // the stream it waits to be written on
	werr   error        // what writing it met

	// What the timer and the end of ctx cancel; guarded by mu.
	mu       sync.Mutex
	cur      *quic.Stream // the request's stream; nil between requests
	deadline time.Time    // when cur times out
	expired  bool         // the timer cancelled cur
}

// NewStream returns a stream whose request in flight is cancelled when
// ctx ends.
func (p *Client) NewStream(ctx context.Context) *Stream {
	s := &Stream{ctx: ctx, p: p, buf: make([]byte, p.readSize)}
	s.resp.reset()
	s.timer = time.AfterFunc(time.Hour, s.expire)
	s.timer.Stop()
	context.AfterFunc(ctx, s.interrupt)
	return s
}

// Do sends the client's request on a new QUIC stream of the shared
// connection, dialing it if there is none, and reads the whole response,
// giving up (and cancelling the stream) after timeout.
func (s *Stream) Do(timeout time.Duration) (target.Response, error) {
	if err := s.ctx.Err(); err != nil {
		return target.Response{}, err
	}
	hc, err := s.p.get(s.ctx)
	if err != nil {
		return target.Response{}, err
	}
	hc.active.Add(1)
	defer hc.release()
	str, err := s.open(hc, timeout)
	if err != nil {
		return target.Response{}, err
	}
	s.arm(str, timeout)
	resp, err := s.exchange(hc, str)
	if expired := s.disarm(); err != nil {
		s.refuse(hc, str, err)
		err = s.explain(hc, str, err, expired, timeout)
	}
	return resp, err
}

// open opens a request stream: at once while the server's stream limit
// allows, else waiting up to timeout for one to end.
func (s *Stream) open(hc *h3Conn, timeout time.Duration) (*quic.Stream, error) {
	str, err := hc.qc.OpenStream()
	if err == nil || !streamLimited(err) {
		return str, err
	}
	ctx, cancel := context.WithTimeout(s.ctx, timeout)
	defer cancel()
	str, err = hc.qc.OpenStreamSync(ctx)
	if err != nil && s.ctx.Err() == nil && ctx.Err() != nil {
		err = fmt.Errorf("no stream free within %v: %w", timeout, context.DeadlineExceeded)
	}
	return str, err
}

// streamLimited says whether err is quic-go's "too many open streams"
// (kept out of open, where its target would be allocated on every call).
func streamLimited(err error) bool {
	var limited *quic.StreamLimitReachedError
	return errors.As(err, &limited)
}

// exchange sends the request on str (with the connection's other
// streams' when they are ready together: writeBatch) and reads the whole
// response.
func (s *Stream) exchange(hc *h3Conn, str *quic.Stream) (resp target.Response, err error) {
	if err := hc.batch.send(s, str); err != nil {
		return target.Response{}, err
	}
	defer func() {
		if err != nil {
			err = hc.batch.unqueue(s, err)
		}
	}()
	r := &s.resp
	r.reset()
	var first time.Time
	for {
		n, err := str.Read(s.buf)
		if n > 0 {
			if first.IsZero() {
				first = time.Now()
			}
			if perr := r.feed(s.buf[:n]); perr != nil {
				return target.Response{Status: r.status, BodyBytes: r.body, FirstByte: first}, perr
			}
		}
		if err == io.EOF {
			return target.Response{Status: r.status, BodyBytes: r.body, FirstByte: first}, r.end()
		}
		if err != nil {
			return target.Response{Status: r.status, BodyBytes: r.body, FirstByte: first}, err
		}
	}
}

// refuse answers a malformed response: a stream error resets the stream, a
// connection error closes the connection (RFC 9114, section 8).
func (s *Stream) refuse(hc *h3Conn, str *quic.Stream, err error) {
	var v *h3Violation
	if !errors.As(err, &v) {
		return
	}
	if v.conn {
		hc.close(v.code, v.msg)
		return
	}
	str.CancelRead(quic.StreamErrorCode(v.code))
	str.CancelWrite(quic.StreamErrorCode(v.code))
}

// explain says why a request failed: its timeout, the end of the run, or
// the server's GOAWAY; otherwise err stands.
func (s *Stream) explain(hc *h3Conn, str *quic.Stream, err error, expired bool, timeout time.Duration) error {
	str.CancelRead(h3RequestCancelled) // nothing more is read: free the stream
	switch {
	case expired:
		return fmt.Errorf("no response within %v: %w", timeout, context.DeadlineExceeded)
	case s.ctx.Err() != nil:
		return s.ctx.Err()
	case hc.refused(str.StreamID()):
		return fmt.Errorf("%w: stream %d was past its last stream", target.ErrGoAway, str.StreamID())
	}
	return err
}

// arm starts str's timeout, and cancels it at once if the run has ended.
func (s *Stream) arm(str *quic.Stream, timeout time.Duration) {
	s.mu.Lock()
	s.cur, s.deadline, s.expired = str, time.Now().Add(timeout), false
	if s.ctx.Err() != nil {
		cancelH3(str)
	}
	s.mu.Unlock()
	s.timer.Reset(timeout)
}

// disarm stops the timeout and says whether it cancelled the request.
func (s *Stream) disarm() (expired bool) {
	s.timer.Stop()
	s.mu.Lock()
	s.cur, expired = nil, s.expired
	s.mu.Unlock()
	return expired
}

// expire cancels the request in flight if its deadline has passed (a
// timer stopped too late for an earlier request finds it has not).
func (s *Stream) expire() {
	s.mu.Lock()
	if s.cur != nil && !time.Now().Before(s.deadline) {
		s.expired = true
		cancelH3(s.cur)
	}
	s.mu.Unlock()
}

// interrupt cancels the request in flight when the stream's context ends.
func (s *Stream) interrupt() {
	s.mu.Lock()
	if s.cur != nil {
		cancelH3(s.cur)
	}
	s.mu.Unlock()
}

// cancelH3 abandons a request stream in both directions.
func cancelH3(str *quic.Stream) {
	str.CancelRead(h3RequestCancelled)
	str.CancelWrite(h3RequestCancelled)
}
