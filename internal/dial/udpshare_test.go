package dial_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"testing"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/transport"
)

// echoQUIC is a QUIC server on loopback that echoes each stream and
// sends the client's address of each connection it accepts on addrs.
func echoQUIC(t *testing.T) (addr string, pool *x509.CertPool, addrs chan net.Addr) {
	t.Helper()
	cert, err := transport.SelfSigned()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := quic.ListenAddr("127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"echo"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	addrs = make(chan net.Addr, 8)
	go func() {
		for {
			qc, err := ln.Accept(context.Background())
			if err != nil {
				return
			}
			addrs <- qc.RemoteAddr()
			go func() {
				for {
					str, err := qc.AcceptStream(context.Background())
					if err != nil {
						return
					}
					go func() { _, _ = io.Copy(str, str); str.Close() }()
				}
			}()
		}
	}()
	return ln.Addr().String(), transport.CertPool(cert), addrs
}

// echo sends msg on a new stream of qc and returns what came back.
func echo(t *testing.T, qc *quic.Conn, msg string) string {
	t.Helper()
	str, err := qc.OpenStream()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := str.Write([]byte(msg)); err != nil {
		t.Fatal(err)
	}
	str.Close()
	got, err := io.ReadAll(str)
	if err != nil {
		t.Fatal(err)
	}
	return string(got)
}

// waitShares waits (up to a second: the release runs when quic-go ends
// the connection's context) for SharedQUIC to hold want sockets.
func waitShares(t *testing.T, want int) {
	t.Helper()
	for deadline := time.Now().Add(time.Second); dial.SharesOpen() != want && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if got := dial.SharesOpen(); got != want {
		t.Fatalf("%d shared sockets open, want %d", got, want)
	}
}

// TestSharedQUIC: two connections dialed by SharedQUIC come from one UDP
// socket (the server sees one client address), each carries its own
// streams, the socket outlives the first to close and closes with the
// last; a dial that fails leaves no socket behind.
func TestSharedQUIC(t *testing.T) {
	addr, pool, addrs := echoQUIC(t)
	tlsConf := &tls.Config{RootCAs: pool, ServerName: "localhost", NextProtos: []string{"echo"}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a, err := dial.SharedQUIC(ctx, nil, addr, tlsConf, &quic.Config{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := dial.SharedQUIC(ctx, nil, addr, tlsConf, &quic.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if a.LocalAddr().String() != b.LocalAddr().String() {
		t.Fatalf("connections from %v and %v, want one socket", a.LocalAddr(), b.LocalAddr())
	}
	if sa, sb := (<-addrs).String(), (<-addrs).String(); sa != sb {
		t.Fatalf("the server saw clients %s and %s, want one address", sa, sb)
	}
	waitShares(t, 1)
	if got := echo(t, a, "a"); got != "a" {
		t.Fatalf("a echoed %q", got)
	}
	a.CloseWithError(0, "")
	<-a.Context().Done()
	if got := echo(t, b, "b"); got != "b" {
		t.Fatalf("b, after a closed, echoed %q", got)
	}
	waitShares(t, 1)
	b.CloseWithError(0, "")
	waitShares(t, 0)

	// Nothing listens on a port this socket holds: the dial fails.
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	short, cancelShort := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancelShort()
	if qc, err := dial.SharedQUIC(short, nil, udp.LocalAddr().String(), tlsConf, &quic.Config{}); err == nil {
		qc.CloseWithError(0, "")
		t.Fatal("a dial to a socket that never answers succeeded")
	}
	waitShares(t, 0)
}
