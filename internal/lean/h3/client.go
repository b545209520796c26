package h3

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/quic-go/qpack"
	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/quicvarint"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/internal/lean/internal/target"
	"github.com/httpvs/httpvs/stats"
)

// Client speaks HTTP/3 to one target over one QUIC connection, redialed
// when it dies or the server sends GOAWAY; its Streams each send one
// request at a time on it, from their own goroutines.
type Client struct {
	t        *target.Target
	qconf    *quic.Config
	tlsConf  *tls.Config
	readSize int // each Stream's read buffer, bytes
	// request is what every request stream starts with: the HEADERS
	// frame, whose QPACK block is encoded once, and, with a body, the
	// DATA frame's header; the body itself follows.
	request []byte

	cur    atomic.Pointer[h3Conn] // read without mu on every request
	mu     sync.Mutex             // held while dialing
	closed bool
}

// NewClient returns a client of t, dialing with the QUIC configuration of
// cfg as the std client would (dial.QUICConfig) and reading each response
// into a buffer of cfg's read size per Stream. It dials on its first
// request.
func NewClient(t *target.Target, cfg config.Client) *Client {
	// What quic-go's http3.Transport does to the std client's config: one
	// QUIC version, and no streams the server may open (unless set).
	qconf := dial.QUICConfig(cfg)
	qconf.Versions = []quic.Version{quic.SupportedVersions()[0]}
	if qconf.MaxIncomingStreams == 0 {
		qconf.MaxIncomingStreams = -1
	}
	p := &Client{t: t, qconf: qconf, tlsConf: t.TLS, readSize: int(cfg.Effective().ReadSize)}
	req := t.Req
	var block bytes.Buffer
	enc := qpack.NewEncoder(&block)
	for _, f := range target.RequestFields(req) {
		_ = enc.WriteField(qpack.HeaderField{Name: f.Name, Value: f.Value}) // a bytes.Buffer does not fail
	}
	p.request = quicvarint.Append(p.request, h3FrameHeaders)
	p.request = quicvarint.Append(p.request, uint64(block.Len()))
	p.request = append(p.request, block.Bytes()...)
	if len(req.Body) > 0 {
		p.request = quicvarint.Append(p.request, h3FrameData)
		p.request = quicvarint.Append(p.request, uint64(len(req.Body)))
	}
	return p
}

// get returns the live connection, dialing one if there is none.
func (p *Client) get(ctx context.Context) (*h3Conn, error) {
	if hc := p.cur.Load(); hc != nil && hc.usable() {
		return hc, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, target.ErrClientClosed
	}
	if hc := p.cur.Load(); hc != nil && hc.usable() {
		return hc, nil // another stream dialed it meanwhile
	}
	hc, err := p.dial(ctx)
	if err != nil {
		return nil, err
	}
	p.cur.Store(hc)
	return hc, nil
}

// dial opens a QUIC connection, waits for its handshake and opens the
// client's control stream. The connection's UDP socket is one all the
// lean HTTP/3 connections in the target's network share (dial.SharedQUIC):
// one goroutine reads every connection's datagrams, several a system call.
func (p *Client) dial(ctx context.Context) (*h3Conn, error) {
	qc, err := dial.SharedQUIC(ctx, p.t.Network, p.t.Addr, p.tlsConf, p.qconf)
	if err != nil {
		return nil, err
	}
	p.t.Connected()
	select {
	case <-qc.HandshakeComplete():
	case <-qc.Context().Done():
		return nil, context.Cause(qc.Context())
	case <-ctx.Done():
		qc.CloseWithError(h3NoError, "")
		return nil, ctx.Err()
	}
	if got := qc.ConnectionState().TLS.NegotiatedProtocol; got != target.ALPNHTTP3 {
		qc.CloseWithError(h3NoError, "")
		return nil, target.NewError(stats.ErrProtocol, fmt.Sprintf("the server negotiated ALPN %q, not h3", got))
	}
	return newH3Conn(qc)
}

// Close closes the connection; later requests fail with
// target.ErrClientClosed.
func (p *Client) Close() {
	p.mu.Lock()
	p.closed = true
	hc := p.cur.Load()
	p.mu.Unlock()
	if hc != nil {
		hc.qc.CloseWithError(h3NoError, "")
	}
}
