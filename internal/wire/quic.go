package wire

import (
	"context"
	"sync"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/qlogwriter"

	"github.com/httpvs/httpvs/stats"
)

// QUICCounter sums quic-go's per-connection statistics over every QUIC
// connection it was told about, live or closed, and the qlog events of the
// connections traced through Tracer. The zero value is ready to use.
type QUICCounter struct {
	mu     sync.Mutex
	closed stats.QUICStats
	live   map[*quic.Conn]struct{}
	trace  quicTraceCounts // QUIC.Trace's
}

// Track adds conn to the sum; when conn ends its last figures move into the
// closed total.
func (q *QUICCounter) Track(conn *quic.Conn) {
	q.mu.Lock()
	if q.live == nil {
		q.live = make(map[*quic.Conn]struct{})
	}
	q.live[conn] = struct{}{}
	q.closed.Connections++
	q.mu.Unlock()
	go func() {
		<-conn.Context().Done()
		final := quicStatsOf(conn)
		q.mu.Lock()
		delete(q.live, conn)
		q.closed.Add(final)
		q.mu.Unlock()
	}()
}

// Snapshot returns the sums over every tracked connection so far.
func (q *QUICCounter) Snapshot() stats.QUICStats {
	q.mu.Lock()
	defer q.mu.Unlock()
	s := q.closed
	for conn := range q.live {
		s.Add(quicStatsOf(conn))
	}
	s.Traced = q.trace.traced.Load()
	s.BlockedFramesSent = q.trace.blockedSent.Load()
	s.BlockedFramesReceived = q.trace.blockedReceived.Load()
	s.CongestionWindowBytes = q.trace.congestionWindow.Load()
	return s
}

// Tracer returns a quic.Config.Tracer that counts qlog events into q:
// flow-control blocked frames and the congestion window.
func (q *QUICCounter) Tracer() func(context.Context, bool, quic.ConnectionID) qlogwriter.Trace {
	return q.trace.tracer()
}

func quicStatsOf(conn *quic.Conn) stats.QUICStats {
	cs := conn.ConnectionStats()
	return stats.QUICStats{
		PacketsSent:     int64(cs.PacketsSent),
		PacketsReceived: int64(cs.PacketsReceived),
		PacketsLost:     int64(cs.PacketsLost),
		BytesSent:       int64(cs.BytesSent),
		BytesReceived:   int64(cs.BytesReceived),
	}
}
