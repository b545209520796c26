package transport

import (
	"net"
	"sync/atomic"

	"github.com/httpvs/httpvs/stats"
)

// counting switches every connection counter (I/O calls, h2c frames) on
// or off; only the benchmark that prices them turns it off.
var counting = true

// ioCounter counts the calls and bytes on a class of connections. It is
// shared by all of them, so its fields are atomic.
type ioCounter struct {
	conns, reads, readBytes, writes, writeBytes atomic.Int64
	readSizes, writeSizes                       [len(stats.SizeCounts{})]atomic.Int64
}

func (c *ioCounter) snapshot() stats.IOStats {
	s := stats.IOStats{
		Connections: c.conns.Load(),
		Reads:       c.reads.Load(),
		ReadBytes:   c.readBytes.Load(),
		Writes:      c.writes.Load(),
		WriteBytes:  c.writeBytes.Load(),
	}
	for i := range s.ReadSizes {
		s.ReadSizes[i] = c.readSizes[i].Load()
		s.WriteSizes[i] = c.writeSizes[i].Load()
	}
	return s
}

// countingConn counts every Read and Write on the connection it wraps
// and, on cleartext connections that may carry h2c, HTTP/2 frames.
type countingConn struct {
	net.Conn
	c      *ioCounter
	rp, wp *frameParser // nil when frames are not counted
}

// newCountingConn wraps conn; with h2 set it also counts h2c frames, as
// the client end when client is true.
func newCountingConn(conn net.Conn, c *ioCounter, h2 *h2Counters, client bool) net.Conn {
	if !counting {
		return conn
	}
	c.conns.Add(1)
	cc := &countingConn{Conn: conn, c: c}
	if h2 != nil {
		cc.rp, cc.wp = newFrameParsers(h2, client)
	}
	return cc
}

func (cc *countingConn) Read(p []byte) (int, error) {
	n, err := cc.Conn.Read(p)
	cc.c.reads.Add(1)
	cc.c.readBytes.Add(int64(n))
	cc.c.readSizes[stats.SizeBucket(int64(n))].Add(1)
	if cc.rp != nil && n > 0 {
		cc.rp.feed(p[:n])
	}
	return n, err
}

func (cc *countingConn) Write(p []byte) (int, error) {
	n, err := cc.Conn.Write(p)
	cc.c.writes.Add(1)
	cc.c.writeBytes.Add(int64(n))
	cc.c.writeSizes[stats.SizeBucket(int64(n))].Add(1)
	if cc.wp != nil && n > 0 {
		cc.wp.feed(p[:n])
	}
	return n, err
}

// CloseWrite half-closes the connection when the wrapped one can, as
// net/http's server does for a graceful HTTP/1.1 close.
func (cc *countingConn) CloseWrite() error {
	if cw, ok := cc.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// countingListener wraps every accepted connection in a countingConn,
// counting h2c frames when h2 is set.
type countingListener struct {
	net.Listener
	c  *ioCounter
	h2 *h2Counters
}

func (l countingListener) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return newCountingConn(conn, l.c, l.h2, false), nil
}
