// Package wire instruments connections without changing what they carry:
// it counts the read and write calls and bytes of TCP connections, follows
// HTTP/2 frames passively on cleartext (h2c) connections - frame types,
// DATA sizes and the time a sender had no flow-control window - and sums
// quic-go's per-connection statistics and qlog events for HTTP/3. The
// transport package wraps its listeners and dialers with it; nothing here
// speaks HTTP.
package wire

import (
	"net"
	"sync/atomic"

	"github.com/httpvs/httpvs/stats"
)

// counting switches every connection counter (I/O calls, h2c frames) on
// or off; only the benchmark that prices them turns it off.
var counting = true

// IOCounter counts the calls and bytes on a class of connections (a
// listener's, or a client's dialed ones). It is shared by all of them, so
// its fields are atomic; the zero value is ready to use.
type IOCounter struct {
	conns, reads, readBytes, writes, writeBytes atomic.Int64
	readSizes, writeSizes                       [len(stats.SizeCounts{})]atomic.Int64
}

// Connections returns how many connections were counted so far.
func (c *IOCounter) Connections() int64 { return c.conns.Load() }

// Snapshot returns the counts so far.
func (c *IOCounter) Snapshot() stats.IOStats {
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
	c      *IOCounter
	rp, wp *frameParser // nil when frames are not counted
}

// WrapConn returns conn counted into c; with h2 set it also follows h2c
// frames into h2, as the client end when client is true. Connections that
// turn out not to speak HTTP/2 are counted in c only.
func WrapConn(conn net.Conn, c *IOCounter, h2 *H2Counters, client bool) net.Conn {
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
	cc.c.readSizes[sizeBucket(int64(n))].Add(1)
	if cc.rp != nil && n > 0 {
		cc.rp.feed(p[:n])
	}
	return n, err
}

func (cc *countingConn) Write(p []byte) (int, error) {
	n, err := cc.Conn.Write(p)
	cc.c.writes.Add(1)
	cc.c.writeBytes.Add(int64(n))
	cc.c.writeSizes[sizeBucket(int64(n))].Add(1)
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

// Listener wraps every accepted connection with WrapConn, as the server
// end, counting into IO and, when H2 is set, following h2c frames.
type Listener struct {
	net.Listener
	IO *IOCounter  // required
	H2 *H2Counters // nil: no frame parsing (TLS listeners, where frames are encrypted)
}

// Accept waits for the next connection and returns it counted.
func (l Listener) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return WrapConn(conn, l.IO, l.H2, false), nil
}

// sizeBuckets are the upper bounds, in bytes, of stats.SizeCounts'
// buckets; the last bucket holds everything above.
var sizeBuckets = [len(stats.SizeCounts{}) - 1]int64{1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20}

// sizeBucket returns the index in a stats.SizeCounts of a size of n bytes.
func sizeBucket(n int64) int {
	b := 0
	for b < len(sizeBuckets) && n > sizeBuckets[b] {
		b++
	}
	return b
}
