package h2

import (
	"context"
	"sync"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/lean/internal/target"
)

// DefaultMaxReadFrameSize is the HTTP/2 SETTINGS_MAX_FRAME_SIZE the lean
// client advertises when its configuration leaves it zero: 1 MiB, what
// Go's server advertises, so that the generator reads big bodies in few
// frames (Go's own client, config's zero value, advertises 16 KiB).
const DefaultMaxReadFrameSize = 1 << 20

// Lean HTTP/2 receive windows when config.Client leaves them zero: Go's
// client defaults.
const (
	leanH2StreamWindow = 4 << 20
	leanH2ConnWindow   = 1 << 30
)

// Client speaks HTTP/2 (h2c with prior knowledge, or h2 when its target
// has TLS) to one target over one connection, redialed when it dies: its
// Streams multiplex requests on it from a goroutine each; RunLoop and
// RunPoll drive closed loops of requests instead.
type Client struct {
	t            *target.Target
	plain        []byte // the request's HPACK header block, stateless
	first, next  []byte // a connection's first block and later ones, indexed (see requestBlocks)
	streamWindow uint32
	connWindow   uint32
	maxFrame     uint32

	mu     sync.Mutex
	cur    *h2Conn
	closed bool
}

// NewClient returns a client of t, with the receive windows and frame
// size of cfg's HTTP/2 settings (Go's client defaults where zero). It dials
// on its first request.
func NewClient(t *target.Target, cfg config.Client) *Client {
	h := cfg.HTTP2
	if h.MaxReadFrameSize == 0 {
		h.MaxReadFrameSize = DefaultMaxReadFrameSize
	}
	p := &Client{t: t, streamWindow: leanH2StreamWindow, connWindow: leanH2ConnWindow, maxFrame: uint32(h.MaxReadFrameSize)}
	if h.MaxReceiveBufferPerStream > 0 {
		p.streamWindow = uint32(h.MaxReceiveBufferPerStream)
	}
	if h.MaxReceiveBufferPerConnection > 0 {
		p.connWindow = uint32(h.MaxReceiveBufferPerConnection)
	}
	p.plain, p.first, p.next = requestBlocks(target.RequestFields(t.Req))
	return p
}

func (p *Client) get(ctx context.Context) (*h2Conn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, target.ErrClientClosed
	}
	if p.cur != nil && p.cur.usable() {
		return p.cur, nil
	}
	hc, err := p.dial(ctx, nil)
	if err != nil {
		return nil, err
	}
	hc.start()
	p.cur = hc
	return hc, nil
}

// dial opens a connection and sends the preface, without starting its
// reader; loop is the Loop that will drive it, or nil.
func (p *Client) dial(ctx context.Context, loop *h2Loop) (*h2Conn, error) {
	conn, err := p.t.Dial(ctx)
	if err != nil {
		return nil, err
	}
	hc, err := newH2Conn(p, conn, loop)
	if err != nil {
		conn.Close()
		return nil, err
	}
	return hc, nil
}

// Close closes the connection and fails its requests in flight; later
// requests fail with target.ErrClientClosed.
func (p *Client) Close() {
	p.mu.Lock()
	p.closed = true
	cur := p.cur
	p.mu.Unlock()
	if cur != nil {
		cur.fail(target.ErrClientClosed)
	}
}
