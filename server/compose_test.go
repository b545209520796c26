package server

import (
	"bytes"
	"errors"
	"io"
	"log"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// TestGRPCAnyPortIfTaken: with GRPCListen held by a listener of the
// test's, a server asked to move starts with native gRPC on another port
// of the same host, serving there and saying it moved; one not asked
// fails with EADDRINUSE naming the address; one whose port is free stays.
func TestGRPCAnyPortIfTaken(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	taken := held.Addr().String()
	opts := Loopback()
	opts.NoH3 = true

	if r, err := Start(Config{Transport: opts, GRPCListen: taken}); err == nil {
		r.Close()
		t.Fatalf("started on %s, which the test holds", taken)
	} else if !errors.Is(err, syscall.EADDRINUSE) || !strings.Contains(err.Error(), taken) {
		t.Fatalf("error %v, want EADDRINUSE naming %s", err, taken)
	}

	r, err := Start(Config{Transport: opts, GRPCListen: taken, GRPCAnyPortIfTaken: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	host, port, err := net.SplitHostPort(r.GRPCAddr)
	if err != nil || !r.GRPCMoved || host != "127.0.0.1" || r.GRPCAddr == taken || port == "0" {
		t.Fatalf("GRPCAddr %q (moved %v), want another port of 127.0.0.1 than %s", r.GRPCAddr, r.GRPCMoved, taken)
	}
	// grpc-go's transport answers a connection with its SETTINGS frame
	// (RFC 9113 3.4): the moved listener serves gRPC, not just a socket.
	c, err := net.Dial("tcp", r.GRPCAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00"); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	frame := make([]byte, 9)
	if _, err := io.ReadFull(c, frame); err != nil || frame[3] != 0x4 {
		t.Fatalf("frame header %x, %v: want SETTINGS (type 4)", frame, err)
	}

	free := Config{Transport: opts, GRPCListen: "127.0.0.1:0", GRPCAnyPortIfTaken: true}
	r2, err := Start(free)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if r2.GRPCMoved || r2.GRPCAddr == "" {
		t.Fatalf("free port: GRPCAddr %q, moved %v", r2.GRPCAddr, r2.GRPCMoved)
	}
}

// garbageHandshakes opens n connections to addr, sends each bytes that are
// no TLS record (a 5-byte record header of an unknown type), and reads
// until the server closes it: net/http logs the handshake error before it
// closes.
func garbageHandshakes(t *testing.T, addr string, n int) {
	t.Helper()
	for range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Write([]byte{0x01, 0x02, 0x03, 0x04, 0x05}); err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, c); err != nil && !errors.Is(err, syscall.ECONNRESET) {
			t.Fatalf("waiting for the server to close: %v", err)
		}
		c.Close()
	}
}

// lockedBuffer is a log destination safe for the servers' goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestConnErrorsCounted: with no ErrorLog, the server counts each failed
// TLS handshake a client provokes, exactly, and a well-formed request adds
// none; with an ErrorLog of the caller's, the errors go there instead.
func TestConnErrorsCounted(t *testing.T) {
	opts := Loopback()
	opts.NoH3 = true
	r, err := Start(Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if n := r.Transport.Counters().ConnErrors; n != 0 {
		t.Fatalf("%d connection errors before any connection", n)
	}
	garbageHandshakes(t, r.Transport.Addr(transport.H2), 3)
	c, err := net.Dial("tcp", r.Transport.Addr(transport.H1))
	if err != nil {
		t.Fatal(err)
	}
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	_, _ = io.WriteString(c, "GET /small HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	if resp, err := io.ReadAll(c); err != nil || !bytes.HasPrefix(resp, []byte("HTTP/1.1 200")) {
		t.Fatalf("GET /small: %q, %v", resp, err)
	}
	c.Close()
	if n := r.Transport.Counters().ConnErrors; n != 3 {
		t.Fatalf("%d connection errors counted, want 3", n)
	}

	var logged lockedBuffer
	opts.ErrorLog = log.New(&logged, "", 0)
	r2, err := Start(Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	garbageHandshakes(t, r2.Transport.Addr(transport.H2), 2)
	if n, lines := r2.Transport.Counters().ConnErrors, strings.Count(logged.String(), "TLS handshake error"); n != 0 || lines != 2 {
		t.Fatalf("with an ErrorLog: %d counted, %d logged (%q); want 0 and 2", n, lines, logged.String())
	}
}

// TestRunningBeyondLoopback: a server on loopback reports no exposed
// listener; one whose cleartext port is on every interface reports that
// one alone, not its loopback TLS and gRPC ones.
func TestRunningBeyondLoopback(t *testing.T) {
	opts := Loopback()
	opts.NoH3 = true
	r, err := Start(Config{Transport: opts, GRPCListen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := r.BeyondLoopback(); len(got) != 0 {
		t.Fatalf("loopback server: %v beyond loopback", got)
	}
	opts.Listen = ":0"
	r2, err := Start(Config{Transport: opts, GRPCListen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if got := r2.BeyondLoopback(); len(got) != 1 || got[0] != r2.Transport.Addr(transport.H1) {
		t.Fatalf("beyond loopback %v, want only the cleartext listener %s", got, r2.Transport.Addr(transport.H1))
	}
}
