//go:build linux

package lean

import (
	"context"
	"fmt"
	"net"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/httpvs/httpvs/backoff"
	"github.com/httpvs/httpvs/lean/internal/poll"
	"github.com/httpvs/httpvs/lean/internal/target"
)

// h1LoopSupported: plain HTTP/1.1 closed loops run on epoll here.
const h1LoopSupported = true

// runH1Loop drives l.Streams HTTP/1.1 connections, one request in flight
// on each, from one epoll set in one goroutine, as each of wrk's threads
// does: non-blocking sockets, level-triggered readiness, no goroutine per
// connection and no Go netpoller between a response and the next request.
func (c *Client) runH1Loop(ctx context.Context, l Loop) error {
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
	cfg    Loop
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
	redial     backoff.Delay
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
	pc.out = p.c.h1req
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

func (p *h1Poll) event(pc *h1PollConn, events uint32) {
	if pc.connecting {
		if events&(unix.EPOLLOUT|unix.EPOLLERR|unix.EPOLLHUP) == 0 {
			return
		}
		soerr, err := unix.GetsockoptInt(pc.fd, unix.SOL_SOCKET, unix.SO_ERROR)
		if err == nil && soerr != 0 {
			err = unix.Errno(soerr)
		}
		if err != nil {
			p.failDial(pc, &net.OpError{Op: "dial", Net: "tcp", Addr: p.raddr, Err: os.NewSyscallError("connect", err)})
			return
		}
		pc.connecting = false
		p.connected(pc)
		p.write(pc)
		return
	}
	if events&unix.EPOLLOUT != 0 && len(pc.out) > 0 {
		p.write(pc)
		if pc.fd < 0 {
			return
		}
	}
	if events&(unix.EPOLLIN|unix.EPOLLERR|unix.EPOLLHUP) != 0 {
		p.read(pc)
	}
}

// write sends what is left of the request, waiting for EPOLLOUT if the
// socket buffer is full.
func (p *h1Poll) write(pc *h1PollConn) {
	for len(pc.out) > 0 {
		n, err := unix.Write(pc.fd, pc.out)
		if err == unix.EINTR {
			continue
		}
		if err == unix.EAGAIN {
			break
		}
		if err != nil {
			p.fail(pc, os.NewSyscallError("write", err))
			return
		}
		pc.out = pc.out[n:]
	}
	if err := p.interest(pc, len(pc.out) > 0); err != nil {
		p.fail(pc, err)
	}
}

// read takes what has arrived and feeds it to the response parser. With
// nothing left over from an earlier read, it reads into the loop's own
// buffer, one for all its connections and so warm in the cache; only bytes
// the parser could not take yet are copied to the connection's buffer.
func (p *h1Poll) read(pc *h1PollConn) {
	for {
		own := pc.r < pc.w
		buf, off := p.shared, 0
		if own {
			if pc.w == len(pc.buf) && pc.r > 0 {
				pc.w = copy(pc.buf, pc.buf[pc.r:pc.w])
				pc.r = 0
			}
			buf, off = pc.buf, pc.w
		}
		space := len(buf) - off
		n, err := unix.Read(pc.fd, buf[off:])
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			return
		case err != nil:
			p.fail(pc, os.NewSyscallError("read", err))
			return
		case n == 0: // the server closed the connection
			if !pc.busy {
				p.shut(pc)
			} else if err := pc.parser.closed(); err != nil {
				p.fail(pc, err)
			} else {
				p.complete(pc)
			}
			return
		}
		if !pc.busy {
			p.shut(pc) // bytes nobody asked for: the connection is out of step
			return
		}
		if pc.firstByte.IsZero() {
			pc.firstByte = p.now
		}
		data := buf[:n]
		if own {
			pc.w += n
			data = pc.buf[pc.r:pc.w]
		}
		used, err := pc.parser.feed(data)
		if err != nil {
			p.fail(pc, err)
			return
		}
		if own {
			pc.r += used
		} else if used < n {
			pc.keep(data[used:])
		}
		if pc.parser.done() {
			p.complete(pc)
			return
		}
		if n < space {
			return // drained; level-triggered epoll says when more comes
		}
	}
}

// keep stores bytes the parser has not taken yet in pc's own buffer,
// made on first need.
func (pc *h1PollConn) keep(b []byte) {
	if pc.buf == nil {
		pc.buf = make([]byte, target.ReadBuffer)
	}
	pc.r, pc.w = 0, copy(pc.buf, b)
}

// complete hands a whole response to Done and queues the connection for
// its next request.
func (p *h1Poll) complete(pc *h1PollConn) {
	keep := pc.parser.keep && len(pc.out) == 0
	p.finish(pc, pc.parser.resp, nil)
	if !keep {
		p.shut(pc)
	}
}

// fail ends pc's request with err and drops the connection.
func (p *h1Poll) fail(pc *h1PollConn, err error) {
	if pc.busy {
		p.finish(pc, pc.parser.resp, err)
	}
	p.shut(pc)
}

// failDial ends pc's request with err, its failed dial, and holds pc back
// from its next request for its redial backoff's wait.
func (p *h1Poll) failDial(pc *h1PollConn, err error) {
	pc.held, pc.retryAt = true, time.Now().Add(pc.redial.Failed())
	p.fail(pc, err)
}

func (p *h1Poll) finish(pc *h1PollConn, resp Response, err error) {
	pc.busy = false
	p.inflight--
	resp.FirstByte = pc.firstByte
	p.cfg.Done(pc.mark, pc.start, p.now, resp, err)
	if pc.held {
		pc.held = false
		p.waiting = append(p.waiting, pc)
		return
	}
	p.ready = append(p.ready, pc)
}

// shut closes pc's socket, if open.
func (p *h1Poll) shut(pc *h1PollConn) {
	if pc.fd < 0 {
		return
	}
	delete(p.byFD, pc.fd)
	unix.Close(pc.fd) // closing removes it from the epoll set
	pc.fd, pc.connecting, pc.wantOut, pc.r, pc.w = -1, false, false, 0, 0
	pc.out = nil
}
