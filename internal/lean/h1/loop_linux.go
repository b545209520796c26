//go:build linux

package h1

import (
	"context"
	"fmt"
	"net"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/internal/lean/internal/poll"
	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

// LoopSupported says whether RunLoop runs here: on Linux, plain HTTP/1.1
// closed loops run on epoll.
const LoopSupported = true

// RunLoop drives l.Streams HTTP/1.1 connections, one request in flight
// on each, from one epoll set in one goroutine, as each of wrk's threads
// does: non-blocking sockets, level-triggered readiness, no goroutine per
// connection and no Go netpoller between a response and the next request.
func (c *Client) RunLoop(ctx context.Context, l target.Loop) error {
	addr, err := net.ResolveTCPAddr("tcp", c.t.Addr)
	if err != nil {
		return err
	}
	p := &h1Poll{c: c, cfg: l, ctx: ctx, head: c.t.Req.Method == "HEAD", raddr: addr}
	if p.sa, p.family, err = poll.Sockaddr(addr); err != nil {
		return err
	}
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

// h1Poll is one event loop's state; only its goroutine touches it, except
// its poll.Set's WakeUp.
type h1Poll struct {
	c      *Client
	cfg    target.Loop
	ctx    context.Context
	head   bool // HEAD requests: responses have no body
	sa     unix.Sockaddr
	raddr  *net.TCPAddr // sa, as dial errors name it
	family int          // AF_INET or AF_INET6
	poll.Set

	conns     []*h1PollConn
	byFD      map[int]*h1PollConn
	ready     []*h1PollConn // idle connections to give a request
	waiting   []*h1PollConn // idle connections whose dial failed, until their retryAt
	shared    []byte        // read buffer of every connection with nothing left over
	inflight  int
	stopped   bool
	now       time.Time
	nextSweep time.Time
	yielded   time.Time // when wait last let other goroutines run
}

// h1PollConn is one connection of an event loop.
type h1PollConn struct {
	fd         int // -1 when closed
	connecting bool
	dialAt     time.Time // when the connection was asked for
	redial     dial.Redial
	held       bool      // its dial failed: finish puts it in waiting, not ready
	retryAt    time.Time // when a held slot may dial again
	wantOut    bool      // registered for EPOLLOUT
	busy       bool      // a request is in flight
	mark       bool
	start      time.Time
	firstByte  time.Time // when the response's first bytes were read
	out        []byte    // request bytes not yet written
	parser     h1Parser
	buf        []byte // bytes left over between reads, made on first need
	r, w       int    // unread bytes are buf[r:w]
}

func (p *h1Poll) open() error {
	if err := p.Open(); err != nil {
		return err
	}
	p.byFD = make(map[int]*h1PollConn, p.cfg.Streams)
	p.shared = make([]byte, target.ReadBuffer)
	for range p.cfg.Streams {
		pc := &h1PollConn{fd: -1}
		p.conns = append(p.conns, pc)
		p.ready = append(p.ready, pc)
	}
	return nil
}

func (p *h1Poll) close() {
	for _, pc := range p.conns {
		p.shut(pc)
	}
	p.Set.Close()
}

func (p *h1Poll) run() {
	events := make([]unix.EpollEvent, 256)
	p.now = time.Now()
	p.nextSweep = p.now.Add(p.cfg.Timeout / 8)
	for {
		p.sendReady()
		if p.ctx.Err() != nil {
			p.stopped = true
			for _, pc := range p.conns {
				if pc.busy {
					p.fail(pc, p.ctx.Err())
				}
			}
		}
		if p.inflight == 0 && p.stopped {
			return
		}
		n, err := p.wait(events)
		p.now = time.Now()
		p.release()
		if err != nil && err != unix.EINTR {
			p.stopped = true
			for _, pc := range p.conns {
				if pc.busy {
					p.fail(pc, os.NewSyscallError("epoll_wait", err))
				}
			}
			continue
		}
		for _, ev := range events[:max(n, 0)] {
			fd := int(ev.Fd)
			if p.Woken(fd) {
				continue
			}
			if pc := p.byFD[fd]; pc != nil {
				p.event(pc, ev.Events)
				p.sendReady() // the next request leaves before the next response is read
			}
		}
		if !p.now.Before(p.nextSweep) {
			p.nextSweep = p.now.Add(p.cfg.Timeout / 8)
			for _, pc := range p.conns {
				if pc.busy && p.now.Sub(pc.start) >= p.cfg.Timeout {
					p.fail(pc, fmt.Errorf("no response within %v: %w", p.cfg.Timeout, context.DeadlineExceeded))
				}
			}
		}
	}
}

// sendReady starts a request on every idle connection.
func (p *h1Poll) sendReady() {
	for len(p.ready) > 0 {
		pc := p.ready[len(p.ready)-1]
		p.ready = p.ready[:len(p.ready)-1]
		p.send(pc)
	}
}

// wait blocks until connections are ready, the next timeout sweep is due
// or a slot whose dial failed may dial again.
func (p *h1Poll) wait(events []unix.EpollEvent) (int, error) {
	until := p.nextSweep
	for _, pc := range p.waiting {
		if pc.retryAt.Before(until) {
			until = pc.retryAt
		}
	}
	return poll.Wait(p.EpollFD, events, until.Sub(p.now), p.cfg.HoldP, p.now, &p.yielded)
}

// release moves the slots whose wait after a failed dial is over to ready.
func (p *h1Poll) release() {
	kept := p.waiting[:0]
	for _, pc := range p.waiting {
		if p.now.Before(pc.retryAt) {
			kept = append(kept, pc)
		} else {
			p.ready = append(p.ready, pc)
		}
	}
	clear(p.waiting[len(kept):])
	p.waiting = kept
}

// send starts the next request on an idle connection, dialing first if
// it has none.
func (p *h1Poll) send(pc *h1PollConn) {
	if p.stopped || p.ctx.Err() != nil {
		p.stopped = true
		return
	}
	mark, ok := p.cfg.Next()
	if !ok {
		p.stopped = true
		return
	}
	p.inflight++
	pc.busy, pc.mark, pc.start, pc.firstByte = true, mark, p.now, time.Time{}
	pc.parser.reset(p.head)
	pc.out = p.c.req
	if pc.fd < 0 {
		if err := p.dial(pc); err != nil {
			p.failDial(pc, err)
			return
		}
		if pc.connecting {
			return // the request goes out when the connection is up
		}
	}
	p.write(pc)
}

func (p *h1Poll) dial(pc *h1PollConn) error {
	pc.dialAt = time.Now()
	fd, err := poll.TCPSocket(p.c.t.Network, p.family)
	if err != nil {
		return os.NewSyscallError("socket", err)
	}
	_ = unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1) // as net.Dial sets it; a failure only costs latency
	err = unix.Connect(fd, p.sa)
	switch err {
	case nil:
	case unix.EINPROGRESS:
		pc.connecting = true
	default:
		unix.Close(fd)
		return &net.OpError{Op: "dial", Net: "tcp", Addr: p.raddr, Err: os.NewSyscallError("connect", err)}
	}
	pc.fd, pc.r, pc.w, pc.wantOut = fd, 0, 0, pc.connecting
	events := uint32(unix.EPOLLIN)
	if pc.connecting {
		events |= unix.EPOLLOUT
	} else {
		p.connected(pc)
	}
	ev := unix.EpollEvent{Events: events, Fd: int32(fd)}
	if err := unix.EpollCtl(p.EpollFD, unix.EPOLL_CTL_ADD, fd, &ev); err != nil {
		unix.Close(fd)
		pc.fd = -1
		return os.NewSyscallError("epoll_ctl", err)
	}
	p.byFD[fd] = pc
	return nil
}

// connected counts pc's new connection and reports its connect time.
func (p *h1Poll) connected(pc *h1PollConn) {
	pc.redial.Reset()
	p.c.t.Connected()
	p.c.t.Dialed(time.Since(pc.dialAt), 0)
}

// interest sets whether the loop waits for pc to be writable.
func (p *h1Poll) interest(pc *h1PollConn, out bool) error {
	if pc.wantOut == out {
		return nil
	}
	events := uint32(unix.EPOLLIN)
	if out {
		events |= unix.EPOLLOUT
	}
	ev := unix.EpollEvent{Events: events, Fd: int32(pc.fd)}
	if err := unix.EpollCtl(p.EpollFD, unix.EPOLL_CTL_MOD, pc.fd, &ev); err != nil {
		return os.NewSyscallError("epoll_ctl", err)
	}
	pc.wantOut = out
	return nil
}
