package h2

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/net/http2"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

// Stream is one worker's stream object, reused for each request. It is
// not safe for concurrent use.
type Stream struct {
	ctx   context.Context
	p     *Client
	done  chan error // buffered 1
	timer *time.Timer

	// Guarded by the connection's mu while the stream is registered.
	id          uint32
	status      int
	firstByte   time.Time // when the response's HEADERS ended
	bytes       int64
	sendWin     int64
	recvUnacked uint32

	// A Loop's stream: the loop's goroutine reads these once the
	// stream has ended.
	loop    *h2Loop
	mark    bool
	started time.Time
	err     error
	rest    []byte // request body not yet sent
}

// NewStream returns a stream whose request in flight is aborted when
// ctx ends.
func (p *Client) NewStream(ctx context.Context) *Stream {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &Stream{ctx: ctx, p: p, done: make(chan error, 1), timer: t}
}

// finish ends the stream with err; hc.mu must be held.
func (s *Stream) finish(err error) {
	if s.loop != nil {
		s.err = err
		s.loop.ended = append(s.loop.ended, s)
		return
	}
	select {
	case s.done <- err:
	default:
	}
}

// Do sends the client's request on a new HTTP/2 stream of the shared
// connection, dialing it if there is none, and reads the whole response,
// giving up (and resetting the stream) after timeout.
func (s *Stream) Do(timeout time.Duration) (target.Response, error) {
	hc, err := s.p.get(s.ctx)
	if err != nil {
		return target.Response{}, err
	}
	select { // a late signal from an earlier, timed-out request
	case <-s.done:
	default:
	}
	// Reserve a stream slot, waiting without holding the write lock: the
	// reader needs it to answer the frames that free slots.
	hc.mu.Lock()
	for hc.err == nil && !hc.goingAway && hc.active >= hc.maxStreams {
		hc.cond.Wait()
	}
	if err := hc.unusableErr(); err != nil {
		hc.mu.Unlock()
		return target.Response{}, err
	}
	hc.active++
	hc.mu.Unlock()

	// Stream IDs must reach the wire in increasing order: take the ID and
	// write the HEADERS under one hold of the write lock.
	body := s.p.t.Req.Body
	hc.lockWrite()
	hc.mu.Lock()
	if err := hc.unusableErr(); err != nil {
		if hc.err == nil {
			hc.active-- // going away: give the reservation back
		}
		hc.mu.Unlock()
		hc.unlockWrite(nil)
		return target.Response{}, err
	}
	s.id, s.status, s.firstByte, s.bytes, s.recvUnacked = hc.nextID, 0, time.Time{}, 0, 0
	s.sendWin = hc.peerInitWin
	hc.nextID += 2
	hc.streams[s.id] = s
	maxData, block := hc.peerMaxData, hc.takeBlock()
	hc.mu.Unlock()
	err = hc.unlockWrite(writeHeaderBlock(hc.fr, s.id, block, len(body) == 0, maxData))
	if err == nil && len(body) > 0 {
		err = s.sendBody(hc, body, maxData)
	}
	if err != nil {
		return target.Response{}, err
	}

	s.timer.Reset(timeout)
	defer s.timer.Stop()
	select {
	case err = <-s.done:
	case <-s.timer.C:
		err = fmt.Errorf("no response within %v: %w", timeout, context.DeadlineExceeded)
		s.abort(hc, http2.ErrCodeCancel)
	case <-s.ctx.Done():
		err = s.ctx.Err()
		s.abort(hc, http2.ErrCodeCancel)
	}
	hc.mu.Lock()
	resp := target.Response{Status: s.status, BodyBytes: s.bytes, FirstByte: s.firstByte}
	hc.mu.Unlock()
	return resp, err
}

// sendBody writes body as DATA frames within the peer's flow-control windows.
func (s *Stream) sendBody(hc *h2Conn, body []byte, maxData uint32) error {
	for len(body) > 0 {
		hc.mu.Lock()
		for hc.err == nil && hc.streams[s.id] == s && (s.sendWin <= 0 || hc.sendWin <= 0) {
			hc.cond.Wait()
		}
		if hc.err != nil || hc.streams[s.id] != s {
			err := hc.err
			hc.mu.Unlock()
			if err == nil {
				err = target.ErrStreamReset
			}
			return err
		}
		n := min(int64(len(body)), s.sendWin, hc.sendWin, int64(maxData))
		s.sendWin -= n
		hc.sendWin -= n
		hc.mu.Unlock()
		chunk, last := body[:n], int(n) == len(body)
		if err := hc.write(func(fr *http2.Framer) error { return fr.WriteData(s.id, last, chunk) }); err != nil {
			return err
		}
		body = body[n:]
	}
	return nil
}

// abort resets the stream on the wire and forgets it.
func (s *Stream) abort(hc *h2Conn, code http2.ErrCode) {
	hc.mu.Lock()
	registered := hc.streams[s.id] == s
	if registered {
		delete(hc.streams, s.id)
		hc.active--
		hc.cond.Broadcast()
	}
	hc.mu.Unlock()
	if registered {
		id := s.id
		_ = hc.write(func(fr *http2.Framer) error { return fr.WriteRSTStream(id, code) }) // a dead connection is already failed
	}
}

// writeHeaderBlock writes HEADERS and, past maxFrame, CONTINUATION frames.
func writeHeaderBlock(fr *http2.Framer, id uint32, block []byte, endStream bool, maxFrame uint32) error {
	first := true
	for {
		frag := block
		if uint32(len(frag)) > maxFrame {
			frag = frag[:maxFrame]
		}
		block = block[len(frag):]
		last := len(block) == 0
		var err error
		if first {
			err = fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: frag, EndStream: endStream, EndHeaders: last})
		} else {
			err = fr.WriteContinuation(id, last, frag)
		}
		if err != nil || last {
			return err
		}
		first = false
	}
}
