//go:build linux

package h1

// The loop's work on one connection: its readiness, its writes and reads,
// and the end of its requests.

import (
	"net"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

// event handles what epoll reported for pc.
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

func (p *h1Poll) finish(pc *h1PollConn, resp target.Response, err error) {
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
