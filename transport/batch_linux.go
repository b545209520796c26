package transport

import (
	"time"

	"golang.org/x/sys/unix"
)

// Batched reads: while a connection's data comes faster than it is read
// (a Read found batchMin bytes or more waiting), a Read with a large
// buffer sleeps until half the buffer has arrived (SO_RCVLOWAT, see
// socket(7)) instead of being woken by every segment. Fewer wake-ups and
// longer copies per recv are what the reader saves; bench/download.sh
// measures it against curl. Only the caller knows how many bytes are still
// to come, so a batched wait is bounded by batchStall: then the kernel
// returns what has arrived, or, when nothing has, the connection stops
// batching until a Read finds batchMin bytes again. Reads of Go's usual
// buffers (4 KiB bufio, 8 KiB io.Copy) are below batchMin and never batch.
const (
	// batchMin is the least a Read's buffer, and what a Read found, for
	// the next Read to batch.
	batchMin = 64 << 10
	// batchMax bounds the bytes a batched Read waits for; the kernel bounds
	// it again by half of net.ipv4.tcp_rmem's maximum.
	batchMax = 1 << 20
	// batchStall bounds a batched Read's wait for more than has come (the
	// kernel rounds it up to its clock tick).
	batchStall = time.Millisecond
	// batchRecheck is how many batched Reads use one reading of the
	// socket's receive buffer size.
	batchRecheck = 64
)

// batchFor returns the SO_RCVLOWAT for a Read of n bytes: 0 not to batch.
// A batch is at most a quarter of the socket's receive buffer, so that
// the window the kernel advertises holds two: the sender goes on while
// the reader copies one. (A larger SO_RCVLOWAT makes the kernel grow the
// buffer and clamp the window to one batch: sender and reader then take
// turns.) The buffer grows as the kernel tunes it; it is read again every
// batchRecheck batched Reads.
func (c *blockingConn) batchFor(n int) int {
	if !c.bulk.Load() || n < batchMin {
		return 0
	}
	c.pmu.Lock()
	defer c.pmu.Unlock()
	if c.rcvbufAge--; c.rcvbufAge <= 0 {
		c.rcvbufAge = batchRecheck
		if b, err := unix.GetsockoptInt(c.fd, unix.SOL_SOCKET, unix.SO_RCVBUF); err == nil {
			c.rcvbuf = b
		}
	}
	if lowat := min(n/2, batchMax, c.rcvbuf/4); lowat >= batchMin/2 {
		return lowat
	}
	return 0
}

// setLowat sets SO_RCVLOWAT to lowat (0: the kernel's default, 1) when
// that differs from what is set.
func (c *blockingConn) setLowat(lowat int) error {
	c.pmu.Lock()
	defer c.pmu.Unlock()
	if lowat == c.lowat {
		return nil
	}
	if err := unix.SetsockoptInt(c.fd, unix.SOL_SOCKET, unix.SO_RCVLOWAT, max(lowat, 1)); err != nil {
		return err
	}
	c.lowat = lowat
	return nil
}

// readBatch is a Read of p, its timeout armed with batchStall as the
// bound, that waits for lowat bytes, at most batchStall beyond the first;
// when none come in batchStall it stops batching and reads as an
// unbatched Read does. EAGAIN and EINTR are left to Read.
func (c *blockingConn) readBatch(p []byte, lowat int) (int, error) {
	if err := c.setLowat(lowat); err != nil {
		return 0, err
	}
	c.waits.batched.Add(1)
	n, err := unix.Read(c.fd, p)
	if err != unix.EAGAIN || c.rd.passed() {
		c.waits.blocked.Add(1)
		return n, err
	}
	c.waits.stalled.Add(1)
	c.bulk.Store(false)
	if err := c.setLowat(0); err != nil {
		return 0, err
	}
	if err := c.arm(&c.rd, unix.SO_RCVTIMEO, 0); err != nil {
		return 0, err
	}
	return c.recv(p)
}

// passed reports whether t's deadline is set and has passed.
func (t *sockTimeout) passed() bool {
	dl := t.deadline.Load()
	return dl != 0 && time.Now().UnixNano() >= dl
}
