package netem

import (
	"context"
	"io"
	"net/netip"
	"time"

	"github.com/httpvs/httpvs/internal/udpprobe"
)

// The tests' traffic across a link: a handshake, UDP echoes and a TCP
// download, for what the counters and the plumbing must show. Measuring a
// link (round trips, rates, goodput) is internal/netcal's.

// dialOnce makes one TCP connection from the client namespace to the
// server namespace.
func dialOnce(ctx context.Context, l *Link) error {
	ln, err := l.Server().Listen("tcp4", netip.AddrPortFrom(ServerAddr, 0).String())
	if err != nil {
		return err
	}
	defer ln.Close()
	go func() { // ends when ln closes
		if c, err := ln.Accept(); err == nil {
			c.Close()
		}
	}()
	c, err := l.Client().DialContext(ctx, "tcp4", ln.Addr().String())
	if err != nil {
		return err
	}
	return c.Close()
}

// echoUDP sends n probes, gap apart, from the client namespace to an
// echo in the server namespace (udpprobe.Probe, as the calibration does),
// and returns how many came back within a second of the last.
func echoUDP(ctx context.Context, l *Link, n int, gap time.Duration) (int, error) {
	p, err := udpprobe.Probe(ctx, l.Server(), l.Client(), ServerAddr, n, gap, time.Second)
	return p.Echoed, err
}

// download sends TCP data from the server namespace to the client
// namespace for d and returns the bytes received.
func download(ctx context.Context, l *Link, d time.Duration) (int64, error) {
	ln, err := l.Server().Listen("tcp4", netip.AddrPortFrom(ServerAddr, 0).String())
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	go func() { // ends when ln closes or the deadline passes
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(d))
		buf := make([]byte, 64<<10)
		for {
			if _, err := c.Write(buf); err != nil {
				return
			}
		}
	}()
	c, err := l.Client().DialContext(ctx, "tcp4", ln.Addr().String())
	if err != nil {
		return 0, err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(d + 5*time.Second))
	n, err := io.Copy(io.Discard, c)
	if n > 0 {
		err = nil // the sender's deadline ends the stream
	}
	return n, err
}
