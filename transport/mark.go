package transport

import (
	"net"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
)

type connMarkKey struct{}

// connMark is attached to every connection's context; the first request on
// the connection counts the connection for its transport and stops its
// first-request deadline.
type connMark struct {
	counted   atomic.Bool
	deadline  *time.Timer     // nil for QUIC connections
	handshake <-chan struct{} // closed once a QUIC handshake completes; nil for TCP
	drop      func()          // closes the connection (a peer under the MinDataRate)
	floor     *streamFloor    // nil when the floor is off
	churn     *h2Churn        // nil for QUIC connections
}

// markTCP starts c's first-request deadline: a connection that has not
// delivered a request's headers within d is closed. net/http's
// ReadHeaderTimeout does this for HTTP/1.1, but an HTTP/2 connection that
// sends its preface and SETTINGS and then nothing would otherwise be held
// for the whole IdleTimeout (the h2 server's own preface deadline ends at
// the first SETTINGS).
// The mark also carries the connection's MinDataRate watch.
// So does its h2Churn, which conns finds for the server's ConnState.
func markTCP(c net.Conn, d time.Duration, conns *churnConns) *connMark {
	mark := &connMark{deadline: time.AfterFunc(d, func() { c.Close() }), drop: func() { c.Close() }, churn: &h2Churn{}}
	if fc := floorOf(c); fc != nil {
		if fc.rate > 0 {
			mark.floor = &streamFloor{rate: fc.rate, grace: fc.grace, window: fc.window,
				sent: fc.written.Load, drop: mark.drop, closed: fc.closed.Load}
		}
		fc.onReadError.Store(mark.churn)
	}
	conns.add(c, mark.churn)
	return mark
}

// markQUIC marks a QUIC connection: its handshake, and its MinDataRate
// watch, m.
func markQUIC(c *quic.Conn, m MinDataRate) *connMark {
	mark := &connMark{
		handshake: c.HandshakeComplete(),
		drop:      func() { c.CloseWithError(quic.ApplicationErrorCode(http3.ErrCodeExcessiveLoad), ErrTooSlow.Error()) },
	}
	if r, on := m.resolved(); on {
		f := &streamFloor{rate: float64(r.BytesPerSecond), grace: r.Grace, window: floorWindow(r.Grace),
			chunk: quicFloorChunk, drop: mark.drop, closed: func() bool { return c.Context().Err() != nil }}
		f.sent = f.accepted.Load
		mark.floor = f
	}
	return mark
}

// quicFloorChunk is the piece of a response a QUIC stream's floor counts
// at a time. The floor counts the response bytes its streams took, not
// the connection's bytes sent: those include quic-go's path MTU probes
// (a padded PING every few seconds), which kept 29 never-reading h3 peers
// over the floor for 20 s, and loss probes. A stream takes a piece only
// as the peer's flow-control window lets it through.
const quicFloorChunk = 64 << 10
