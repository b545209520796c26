package server

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

// TestHostileAbortedDownloads opens h2c connections as fast as it can for
// 8 s, each a GET /bytes/10g of which it reads 20 KB before closing the
// connection without resetting the stream. Go's HTTP/2 server would keep
// each closed connection's buffers until the idle timeout (2 minutes
// here, serve's default); the server's peak RSS must stay under the
// suite's bound.
func TestHostileAbortedDownloads(t *testing.T) {
	runHostile(t, false, func(t *testing.T, a *attacked) (bool, string) {
		addr := strings.TrimPrefix(a.Plain, "http://")
		var block bytes.Buffer
		enc := hpack.NewEncoder(&block)
		for _, f := range [][2]string{{":method", "GET"}, {":scheme", "http"}, {":authority", addr}, {":path", "/bytes/10g"}} {
			enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
		}
		began, aborted := time.Now(), 0
		for ; aborted < 200_000 && time.Since(began) < 8*time.Second; aborted++ {
			if err := abortOne(addr, block.Bytes()); err != nil {
				t.Fatalf("after %d aborted downloads: %v", aborted, err)
			}
		}
		return true, fmt.Sprintf("%d h2c downloads aborted (%.0f/s)", aborted, float64(aborted)/time.Since(began).Seconds())
	}, idleEnv+"=2m")
}

// abortOne GETs with header block on a new h2c connection, reads 20 KB
// and closes the connection.
func abortOne(addr string, block []byte) error {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	fr := http2.NewFramer(c, c)
	if _, err := io.WriteString(c, http2.ClientPreface); err != nil {
		return err
	}
	if err := fr.WriteSettings(); err != nil {
		return err
	}
	if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: block, EndStream: true, EndHeaders: true}); err != nil {
		return err
	}
	_, err = io.CopyN(io.Discard, c, 20_000)
	return err
}

// hostileMaxConns is the attacked server's MaxConns in the slow-peer
// attacks: the good client's connection and hostileMaxConns-1 attackers
// fill it.
const hostileMaxConns = 30

// TestHostileNeverReaders fills the server's MaxConns with h1 connections
// that GET /bytes/10g and never read: each is dropped at the minimum data
// rate's grace period (slowPeerGrace here) after its
// socket's buffers fill, so a new client, queued behind them, is served
// within about that plus a second.
func TestHostileNeverReaders(t *testing.T) {
	runHostile(t, true, func(t *testing.T, a *attacked) (bool, string) {
		addr := strings.TrimPrefix(a.Plain, "http://")
		for range hostileMaxConns - 1 {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			c.(*net.TCPConn).SetReadBuffer(4096)
			if _, err := io.WriteString(c, "GET /bytes/10g HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
				t.Fatal(err)
			}
		}
		began := time.Now()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		line, err := rawStatus(c, hostileDropWithin)
		took := time.Since(began)
		if err != nil || line != "HTTP/1.1 200 OK" {
			t.Fatalf("a new client behind %d never-reading ones: %q, %v after %v", hostileMaxConns-1, line, err, took)
		}
		within := slowPeerGrace + 3*time.Second
		return took < within, fmt.Sprintf("%d never-reading h1 connections; a new client served after %v (grace %v)",
			hostileMaxConns-1, took.Round(time.Millisecond), slowPeerGrace)
	}, slowPeerEnv()...)
}

// TestHostileSlowSenders fills the server's MaxConns with h1 uploads that
// send a byte every 200 ms (5 B/s): each is dropped once the grace period
// has passed, so a new client, queued behind them, is served.
func TestHostileSlowSenders(t *testing.T) {
	runHostile(t, true, func(t *testing.T, a *attacked) (bool, string) {
		addr := strings.TrimPrefix(a.Plain, "http://")
		stop := make(chan struct{})
		defer close(stop)
		for range hostileMaxConns - 1 {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			if _, err := io.WriteString(c, "POST /sink HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n"); err != nil {
				t.Fatal(err)
			}
			go func() {
				for range 200 { // 40 s at most
					select {
					case <-stop:
						return
					case <-time.After(200 * time.Millisecond):
					}
					if _, err := c.Write([]byte{'x'}); err != nil {
						return
					}
				}
			}()
		}
		began := time.Now()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		line, err := rawStatus(c, hostileDropWithin)
		took := time.Since(began)
		if err != nil || line != "HTTP/1.1 200 OK" {
			t.Fatalf("a new client behind %d slow senders: %q, %v after %v", hostileMaxConns-1, line, err, took)
		}
		within := slowPeerGrace + 3*time.Second
		return took < within, fmt.Sprintf("%d h1 uploads at 5 B/s; a new client served after %v (grace %v)",
			hostileMaxConns-1, took.Round(time.Millisecond), slowPeerGrace)
	}, slowPeerEnv()...)
}

// rawStatus sends GET /small on c and returns the response's status line,
// giving up after wait.
func rawStatus(c net.Conn, wait time.Duration) (string, error) {
	c.SetDeadline(time.Now().Add(wait))
	if _, err := io.WriteString(c, "GET /small HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		return "", err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return strings.TrimSpace(line), err
}
