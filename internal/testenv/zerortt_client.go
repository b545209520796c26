package testenv

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
)

// ZeroRTTConn is an HTTP/3 connection that resumed a session and can send
// requests in 0-RTT early data while its relay holds the handshake back.
type ZeroRTTConn struct {
	relay *zeroRTTRelay
	quic  *quic.Conn
	http  *http3.ClientConn
}

// zeroRTTTicketCache is a session cache that says when it has a ticket.
type zeroRTTTicketCache struct {
	tls.ClientSessionCache
	once sync.Once
	got  chan struct{}
}

func (c *zeroRTTTicketCache) Put(key string, cs *tls.ClientSessionState) {
	c.ClientSessionCache.Put(key, cs)
	if cs != nil {
		c.once.Do(func() { close(c.got) })
	}
}

// DialZeroRTT connects to the HTTP/3 server at server (a UDP host:port on
// loopback) whose certificate is cert, once to learn a session ticket and
// then again, resuming it with 0-RTT, through a relay that holds the
// second handshake back until Complete.
func DialZeroRTT(ctx context.Context, server string, cert *x509.Certificate) (*ZeroRTTConn, error) {
	relay, err := newZeroRTTRelay(server)
	if err != nil {
		return nil, err
	}
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	cache := &zeroRTTTicketCache{ClientSessionCache: tls.NewLRUClientSessionCache(4), got: make(chan struct{})}
	tlsConf := &tls.Config{RootCAs: roots, ServerName: "127.0.0.1", NextProtos: []string{http3.NextProtoH3}, ClientSessionCache: cache}
	qconf := &quic.Config{Versions: []quic.Version{quic.Version1}}
	first, err := quic.DialAddr(ctx, relay.Addr(), tlsConf, qconf)
	if err != nil {
		relay.Close()
		return nil, fmt.Errorf("first connection: %w", err)
	}
	select {
	case <-cache.got:
	case <-ctx.Done():
	}
	first.CloseWithError(0, "")
	if ctx.Err() != nil {
		relay.Close()
		return nil, fmt.Errorf("waiting for a session ticket: %w", ctx.Err())
	}
	relay.Hold()
	conn, err := quic.DialAddrEarly(ctx, relay.Addr(), tlsConf, qconf)
	if err != nil {
		relay.Close()
		return nil, fmt.Errorf("resumed connection: %w", err)
	}
	return &ZeroRTTConn{relay: relay, quic: conn, http: (&http3.Transport{}).NewClientConn(conn)}, nil
}

// Send sends method url without a body, at once: in 0-RTT data while the
// handshake is held back, as no stock client would send an unsafe method.
// Once the client has sent it, the relay lets the server's answer
// through, and Send returns the status and up to 64 KiB of the body. Only
// a connection's first Send goes in early data: by the second the client
// has heard the server and sends in 1-RTT packets, which stay held until
// Complete.
func (c *ZeroRTTConn) Send(ctx context.Context, method, url string) (status int, body string, err error) {
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return 0, "", err
	}
	str, err := c.http.OpenRequestStream(ctx)
	if err != nil {
		return 0, "", err
	}
	if err := str.SendRequestHeader(req); err != nil {
		return 0, "", err
	}
	// A server may answer and stop reading the request (STOP_SENDING,
	// RFC 9114 4.1) before the FIN goes out, and Close then fails (seen on
	// a starved machine after the handshake): the response still counts.
	closeErr := str.Close()
	c.relay.WaitQuiet(50*time.Millisecond, 2*time.Second)
	c.relay.ReleaseServer()
	resp, err := str.ReadResponse()
	if err != nil {
		return 0, "", errors.Join(err, closeErr)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	return resp.StatusCode, string(b), err
}

// Used0RTT reports whether the server accepted the early data; it is
// known once the handshake has completed.
func (c *ZeroRTTConn) Used0RTT() bool { return c.quic.ConnectionState().Used0RTT }

// Complete lets the held packets through and waits for the handshake.
func (c *ZeroRTTConn) Complete(ctx context.Context) error {
	c.relay.Release()
	select {
	case <-c.quic.HandshakeComplete():
		return nil
	case <-ctx.Done():
		return errors.Join(errors.New("handshake did not complete"), ctx.Err())
	}
}

// Close closes the connection and the relay.
func (c *ZeroRTTConn) Close() error {
	return errors.Join(c.quic.CloseWithError(0, ""), c.relay.Close())
}
