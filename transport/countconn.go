package transport

import (
	"net"
	"sync/atomic"

	"github.com/httpvs/httpvs/stats"
)

// ioCounter counts the calls and bytes on a class of connections. It is
// shared by all of them, so its fields are atomic.
type ioCounter struct {
	conns, reads, readBytes, writes, writeBytes atomic.Int64
}

func (c *ioCounter) snapshot() stats.IOStats {
	return stats.IOStats{
		Connections: c.conns.Load(),
		Reads:       c.reads.Load(),
		ReadBytes:   c.readBytes.Load(),
		Writes:      c.writes.Load(),
		WriteBytes:  c.writeBytes.Load(),
	}
}

// countingConn counts every Read and Write on the connection it wraps.
type countingConn struct {
	net.Conn
	c *ioCounter
}

func newCountingConn(conn net.Conn, c *ioCounter) *countingConn {
	c.conns.Add(1)
	return &countingConn{Conn: conn, c: c}
}

func (cc *countingConn) Read(p []byte) (int, error) {
	n, err := cc.Conn.Read(p)
	cc.c.reads.Add(1)
	cc.c.readBytes.Add(int64(n))
	return n, err
}

func (cc *countingConn) Write(p []byte) (int, error) {
	n, err := cc.Conn.Write(p)
	cc.c.writes.Add(1)
	cc.c.writeBytes.Add(int64(n))
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

// countingListener wraps every accepted connection in a countingConn.
type countingListener struct {
	net.Listener
	c *ioCounter
}

func (l countingListener) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return newCountingConn(conn, l.c), nil
}
