//go:build linux

package h2

import (
	"context"
	"errors"
	"net"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/internal/lean/internal/poll"
	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

// PollSupported says whether RunPoll runs here: on Linux, HTTP/2 loops
// run their connections on epoll.
const PollSupported = true

// RunPoll drives l.Conns HTTP/2 connections with l.Streams streams each
// from one epoll set in one goroutine, as each of h2load's threads does:
// sockets taken from Go's netpoller, frames handled as they are read, and
// each connection's HEADERS written in one system call per turn of the
// loop. No goroutine is woken per response, and the runtime's scheduler
// is not between a response and the next request.
func (c *Client) RunPoll(ctx context.Context, l target.Loop) error {
	p := &h2Poll{c: c, cfg: l, ctx: ctx}
	if err := p.open(); err != nil {
		p.close()
		return err
	}
	stop := context.AfterFunc(ctx, p.WakeUp)
	defer stop()
	defer p.close()
	p.run()
	return nil
}

// h2Poll is one event loop's state; only its goroutine touches it, except
// its poll.Set's WakeUp.
type h2Poll struct {
	c   *Client
	cfg target.Loop
	ctx context.Context
	poll.Set

	conns     []*h2PollConn
	byFD      map[int]*h2PollConn
	now       time.Time
	nextSweep time.Time
	yielded   time.Time
}

// h2PollConn is one connection slot of a loop: its Loop state, kept
// across redials, and its current connection, if any.
type h2PollConn struct {
	lp *h2Loop
	hc *h2Conn    // nil when not connected
	fc *poll.Conn // hc's socket
	fd int        // fc's descriptor, the epoll key
	// viaTLS: reads pass through crypto/tls, which may hold whole records
	// it has read, so the connection is read until the socket has nothing,
	// never just until a read comes up short.
	viaTLS bool
	// redial counts its failed dials in a row; retryAt is when the slot
	// may dial again after the last.
	redial  dial.Redial
	retryAt time.Time
}

func (p *h2Poll) open() error {
	if err := p.Open(); err != nil {
		return err
	}
	p.byFD = make(map[int]*h2PollConn, max(p.cfg.Conns, 1))
	for range max(p.cfg.Conns, 1) {
		p.conns = append(p.conns, &h2PollConn{lp: &h2Loop{cfg: p.cfg}, fd: -1})
	}
	return nil
}

func (p *h2Poll) close() {
	for _, pc := range p.conns {
		if pc.hc != nil {
			p.drop(pc, target.ErrClientClosed)
		}
	}
	p.Set.Close()
}

func (p *h2Poll) run() {
	events := make([]unix.EpollEvent, 256)
	p.now = time.Now()
	p.nextSweep = p.now.Add(p.cfg.Timeout / 8)
	for {
		if p.ctx.Err() != nil {
			p.end(p.ctx.Err())
			return
		}
		if !p.connectAll() {
			return
		}
		// A slot whose dial failed dials again after its backoff, not at
		// the next sweep (Timeout/8, 3.75 s by default), which kept a loop
		// whose server had died from finding out for that long.
		until := p.nextSweep
		if at, ok := p.nextRedial(); ok && at.Before(until) {
			until = at
		}
		n, err := poll.Wait(p.EpollFD, events, until.Sub(p.now), p.cfg.HoldP, p.now, &p.yielded)
		p.now = time.Now()
		if err != nil && err != unix.EINTR {
			p.end(os.NewSyscallError("epoll_wait", err))
			return
		}
		for _, ev := range events[:max(n, 0)] {
			fd := int(ev.Fd)
			if p.Woken(fd) {
				continue
			}
			if pc := p.byFD[fd]; pc != nil {
				p.turn(pc, true)
			}
		}
		if !p.now.Before(p.nextSweep) {
			p.nextSweep = p.now.Add(p.cfg.Timeout / 8)
			for _, pc := range p.conns {
				if pc.hc != nil {
					p.turn(pc, false)
				}
			}
		}
	}
}

// connectAll dials the slots that have none and still have requests to
// make; false when every slot is done.
func (p *h2Poll) connectAll() bool {
	more := false
	for _, pc := range p.conns {
		if pc.hc == nil && !pc.lp.stopped && !p.now.Before(pc.retryAt) {
			p.connect(pc)
		}
		if pc.hc != nil || !pc.lp.stopped {
			more = true
		}
	}
	return more
}

// nextRedial is the earliest time a slot that still has requests to make
// and no connection (its dial failed) may dial again; ok false when there
// is none.
func (p *h2Poll) nextRedial() (at time.Time, ok bool) {
	for _, pc := range p.conns {
		if pc.hc == nil && !pc.lp.stopped && (!ok || pc.retryAt.Before(at)) {
			at, ok = pc.retryAt, true
		}
	}
	return at, ok
}

// end fails every request in flight with err, and what Next gave for
// connections not up yet, and stops.
func (p *h2Poll) end(err error) {
	for _, pc := range p.conns {
		if pc.hc != nil {
			p.drop(pc, err)
		}
		if lp := pc.lp; lp.pending != nil { // claimed, never sent
			lp.cfg.Done(*lp.pending, p.now, p.now, target.Response{}, err)
			lp.pending = nil
		}
		pc.lp.stopped = true
	}
}

// connect dials pc's connection, first claiming a request for it so that
// a dial that fails fails a request, and starts its requests.
func (p *h2Poll) connect(pc *h2PollConn) {
	lp := pc.lp
	if lp.pending == nil {
		mark, ok := lp.cfg.Next()
		if !ok {
			lp.stopped = true
			return
		}
		lp.pending = &mark
	}
	start := time.Now()
	hc, fc, err := p.c.dialPoll(p.ctx, lp)
	if err == nil {
		ev := unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(fc.FD)}
		if err = unix.EpollCtl(p.EpollFD, unix.EPOLL_CTL_ADD, fc.FD, &ev); err != nil {
			hc.fail(os.NewSyscallError("epoll_ctl", err))
			err = hc.err
		}
	}
	p.now = time.Now()
	if err != nil {
		mark := *lp.pending
		lp.pending = nil
		lp.cfg.Done(mark, start, p.now, target.Response{}, err)
		pc.retryAt = time.Now().Add(pc.redial.Failed())
		return
	}
	pc.redial.Reset()
	pc.hc, pc.fc, pc.fd = hc, fc, fc.FD
	_, plain := hc.conn.(*poll.Conn)
	pc.viaTLS = !plain
	p.byFD[pc.fd] = pc
	lp.nextSweep = p.now.Add(p.cfg.Timeout / 8)
	p.turn(pc, false)
}

// turn handles what pc's connection has brought (if readable), starts the
// requests that makes room for, and writes them out.
func (p *h2Poll) turn(pc *h2PollConn, readable bool) {
	hc, lp := pc.hc, pc.lp
	lp.now = p.now
	var err error
	if readable {
		pc.fc.Short = false
		err = p.frames(pc)
	}
	if err == nil {
		err = lp.service(hc)
	}
	if err == nil {
		err = hc.flush()
	}
	if err == nil && lp.inflight == 0 && (lp.stopped || !hc.usable()) {
		err = errLoopRetired
	}
	if err != nil {
		p.drop(pc, err)
	}
}

// frames reads and handles every whole frame that has arrived, starting
// requests as others end.
func (p *h2Poll) frames(pc *h2PollConn) error {
	hc, lp := pc.hc, pc.lp
	for {
		if err := pc.fill(); err != nil {
			if errors.Is(err, poll.ErrWouldBlock) {
				return nil
			}
			return target.EOFIsReset(err)
		}
		if err := pc.frame(); err != nil {
			return err
		}
		if hc.br.Buffered() == 0 {
			if err := lp.service(hc); err != nil {
				return err
			}
		}
	}
}

// frame handles the buffered frame at the head of the connection.
func (pc *h2PollConn) frame() error {
	hc := pc.hc
	if done, err := hc.quickFrame(); done || err != nil {
		return err
	}
	f, err := hc.fr.ReadFrame()
	pc.fc.Loop = true
	if err != nil {
		return target.EOFIsReset(err)
	}
	return hc.handle(f)
}

// fill makes sure a whole frame is buffered, reading from the socket as
// needed; poll.ErrWouldBlock says the socket has nothing more. A frame larger
// than the buffer is left to be read with waits.
func (pc *h2PollConn) fill() error {
	br := pc.hc.br
	for {
		if n := br.Buffered(); n >= 9 {
			hdr, _ := br.Peek(9)
			need := 9 + (int(hdr[0])<<16 | int(hdr[1])<<8 | int(hdr[2]))
			if need > br.Size() {
				pc.fc.Loop = false // frames reads set it back
				return nil
			}
			if n >= need {
				return nil
			}
		}
		if !pc.viaTLS && pc.fc.Short {
			return poll.ErrWouldBlock
		}
		if _, err := br.Peek(br.Buffered() + 1); err != nil {
			return err
		}
	}
}

// drop fails pc's connection and the requests on it with err.
func (p *h2Poll) drop(pc *h2PollConn, err error) {
	delete(p.byFD, pc.fd)
	pc.hc.fail(err) // closes the socket, which leaves the epoll set
	pc.lp.now = p.now
	pc.lp.deliver(pc.hc)
	pc.hc, pc.fc, pc.fd = nil, nil, -1
}

// dialPoll opens a connection for an event loop: its socket out of Go's
// netpoller, its reads returning poll.ErrWouldBlock once it is up.
func (p *Client) dialPoll(ctx context.Context, lp *h2Loop) (*h2Conn, *poll.Conn, error) {
	var fc *poll.Conn
	conn, err := p.t.DialVia(ctx, func(conn net.Conn) (net.Conn, error) {
		var err error
		if fc, err = poll.NewConn(conn); err != nil {
			return nil, err
		}
		fc.Deadline = time.Now().Add(p.t.Dialer.Timeout)
		return fc, nil
	})
	if err != nil {
		return nil, nil, err
	}
	hc, err := newH2Conn(p, conn, lp)
	if err != nil {
		conn.Close()
		return nil, nil, err
	}
	fc.Deadline, fc.WriteWait, fc.Loop = time.Time{}, lp.cfg.Timeout, true
	return hc, fc, nil
}
