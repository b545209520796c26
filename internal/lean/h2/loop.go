package h2

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/net/http2"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

// RunLoop runs l on the client's HTTP/2 connection from its reader
// goroutine, redialing it (after a failed dial, with backoff), until Next
// says stop and every request has ended, or ctx ends. l.Conns is ignored.
func (c *Client) RunLoop(ctx context.Context, l target.Loop) error {
	lp := &h2Loop{cfg: l}
	var redial dial.Redial
	for ctx.Err() == nil {
		if lp.pending == nil {
			mark, ok := l.Next()
			if !ok {
				return nil
			}
			lp.pending = &mark
		}
		start := time.Now()
		hc, err := c.dialLoop(ctx, lp)
		if err != nil {
			mark := *lp.pending
			lp.pending = nil
			l.Done(mark, start, time.Now(), target.Response{}, err)
			dial.RedialSleep(ctx, redial.Failed())
			continue
		}
		redial.Reset()
		stop := context.AfterFunc(ctx, func() { hc.fail(ctx.Err()) })
		hc.start()
		<-lp.over
		stop()
		if lp.stopped && lp.inflight == 0 {
			return nil
		}
	}
	if lp.pending != nil { // claimed, never sent
		now := time.Now()
		l.Done(*lp.pending, now, now, target.Response{}, ctx.Err())
	}
	return nil
}

// dialLoop opens a connection for lp, without starting its reader.
func (p *Client) dialLoop(ctx context.Context, lp *h2Loop) (*h2Conn, error) {
	hc, err := p.dial(ctx, lp)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		hc.fail(target.ErrClientClosed)
		return nil, target.ErrClientClosed
	}
	p.cur = hc
	lp.over = make(chan struct{})
	return hc, nil
}

// h2Loop is a Loop's state, kept across redials. Only the reading
// goroutine of the current connection touches it, except ended, which
// the connection's fail may fill from another goroutine under hc.mu.
type h2Loop struct {
	cfg      target.Loop
	over     chan struct{} // closed when the current connection's reader returns
	pending  *bool         // a mark Next gave before the connection was up
	stopped  bool          // Next said no more
	inflight int           // started and not yet handed to Done
	free     []*Stream
	sending  []*Stream // streams with request body left to send

	ended, work []*Stream // ended streams, guarded by hc.mu; and the batch being delivered

	now       time.Time // when the last frame was handled
	nextSweep time.Time // when to look for requests past the timeout
	deadline  time.Time // the connection's read deadline
}

var errLoopRetired = errors.New("connection retired")

// run is the reader goroutine of a loop connection.
func (hc *h2Conn) runLoop() {
	lp := hc.loop
	defer close(lp.over)
	lp.now = time.Now()
	lp.nextSweep = lp.now.Add(lp.cfg.Timeout / 8)
	err := lp.service(hc)
	for err == nil {
		if lp.inflight == 0 && (lp.stopped || !hc.usable()) {
			err = errLoopRetired
			break
		}
		if hc.br.Buffered() == 0 {
			if err = hc.flush(); err != nil {
				break
			}
			if lp.deadline.Sub(lp.now) < lp.cfg.Timeout-lp.cfg.Timeout/8 {
				lp.deadline = lp.now.Add(lp.cfg.Timeout)
				if err = hc.conn.SetReadDeadline(lp.deadline); err != nil {
					break
				}
			}
		}
		var f http2.Frame
		reads := hc.reads.n
		if f, err = hc.fr.ReadFrame(); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				err = fmt.Errorf("no frame within %v: %w", lp.cfg.Timeout, context.DeadlineExceeded)
			}
			err = target.EOFIsReset(err)
			break
		}
		if hc.reads.n != reads {
			lp.now = time.Now() // frames read together share a clock reading
		}
		if err = hc.handle(f); err == nil {
			err = lp.service(hc)
		}
	}
	hc.fail(err)
	lp.now = time.Now()
	lp.deliver(hc)
}

// flush writes out what the loop queued.
func (hc *h2Conn) flush() error {
	hc.wmu.Lock()
	defer hc.wmu.Unlock()
	if hc.bw.Buffered() == 0 {
		return nil
	}
	return hc.bw.Flush()
}

// service hands ended requests to Done, times out overdue ones, sends
// request bodies the windows allow and starts requests up to Streams.
func (lp *h2Loop) service(hc *h2Conn) error {
	if !lp.now.Before(lp.nextSweep) {
		lp.nextSweep = lp.now.Add(lp.cfg.Timeout / 8)
		if err := lp.sweep(hc); err != nil {
			return err
		}
	}
	lp.deliver(hc)
	if err := lp.pump(hc); err != nil {
		return err
	}
	for lp.inflight < lp.cfg.Streams && !lp.stopped {
		hc.mu.Lock()
		full := hc.unusableErr() != nil || hc.nextID >= 1<<31-1 || hc.active >= hc.maxStreams
		hc.mu.Unlock()
		if full {
			return nil
		}
		mark, ok := false, true
		if lp.pending != nil {
			mark, lp.pending = *lp.pending, nil
		} else {
			mark, ok = lp.cfg.Next()
		}
		if !ok {
			lp.stopped = true
			return nil
		}
		if err := lp.start(hc, mark); err != nil {
			return err
		}
	}
	return nil
}

// deliver hands every ended stream to Done.
func (lp *h2Loop) deliver(hc *h2Conn) {
	hc.mu.Lock()
	lp.work, lp.ended = lp.ended, lp.work[:0]
	hc.mu.Unlock()
	for i, s := range lp.work {
		lp.cfg.Done(s.mark, s.started, lp.now, target.Response{Status: s.status, BodyBytes: s.bytes, FirstByte: s.firstByte}, s.err)
		lp.inflight--
		s.rest = nil
		lp.free = append(lp.free, s)
		lp.work[i] = nil
	}
}

// start registers a stream and queues its HEADERS (and what of its body
// the windows allow).
func (lp *h2Loop) start(hc *h2Conn, mark bool) error {
	var s *Stream
	if n := len(lp.free); n > 0 {
		s, lp.free = lp.free[n-1], lp.free[:n-1]
	} else {
		s = &Stream{loop: lp}
	}
	body := hc.p.t.Req.Body
	s.mark, s.started, s.err = mark, lp.now, nil
	hc.wmu.Lock()
	hc.mu.Lock()
	lp.inflight++
	if err := hc.unusableErr(); err != nil { // failed since service looked
		s.id, s.err = 0, err
		lp.ended = append(lp.ended, s)
		hc.mu.Unlock()
		hc.wmu.Unlock()
		return nil
	}
	s.id, s.status, s.firstByte, s.bytes, s.recvUnacked = hc.nextID, 0, time.Time{}, 0, 0
	s.sendWin = hc.peerInitWin
	hc.nextID += 2
	hc.active++
	hc.streams[s.id] = s
	maxData, block := hc.peerMaxData, hc.takeBlock()
	hc.mu.Unlock()
	err := writeHeaderBlock(hc.fr, s.id, block, len(body) == 0, maxData)
	hc.wmu.Unlock()
	if err != nil {
		return err
	}
	if len(body) > 0 {
		s.rest = body
		lp.sending = append(lp.sending, s)
		return lp.pump(hc)
	}
	return nil
}

// pump queues request body DATA frames as far as the send windows allow.
func (lp *h2Loop) pump(hc *h2Conn) error {
	kept := lp.sending[:0]
	for _, s := range lp.sending {
		for len(s.rest) > 0 {
			hc.mu.Lock()
			live := hc.streams[s.id] == s
			n := min(int64(len(s.rest)), s.sendWin, hc.sendWin, int64(hc.peerMaxData))
			if !live || n <= 0 {
				hc.mu.Unlock()
				break
			}
			s.sendWin -= n
			hc.sendWin -= n
			hc.mu.Unlock()
			chunk := s.rest[:n]
			s.rest = s.rest[n:]
			hc.wmu.Lock()
			err := hc.fr.WriteData(s.id, len(s.rest) == 0, chunk)
			hc.wmu.Unlock()
			if err != nil {
				return err
			}
		}
		hc.mu.Lock()
		live := hc.streams[s.id] == s
		hc.mu.Unlock()
		if live && len(s.rest) > 0 {
			kept = append(kept, s)
		}
	}
	clear(lp.sending[len(kept):])
	lp.sending = kept
	return nil
}

// sweep resets requests in flight for longer than the timeout and ends
// them with a timeout error.
func (lp *h2Loop) sweep(hc *h2Conn) error {
	var overdue []uint32
	hc.mu.Lock()
	for _, s := range hc.streams {
		if lp.now.Sub(s.started) >= lp.cfg.Timeout {
			overdue = append(overdue, s.id)
			hc.end(s, fmt.Errorf("no response within %v: %w", lp.cfg.Timeout, context.DeadlineExceeded))
		}
	}
	hc.mu.Unlock()
	if len(overdue) == 0 {
		return nil
	}
	hc.wmu.Lock()
	defer hc.wmu.Unlock()
	for _, id := range overdue {
		if err := hc.fr.WriteRSTStream(id, http2.ErrCodeCancel); err != nil {
			return err
		}
	}
	return nil
}
