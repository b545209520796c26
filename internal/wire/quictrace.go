package wire

import (
	"context"
	"sync/atomic"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/qlog"
	"github.com/quic-go/quic-go/qlogwriter"
)

// quicTraceCounts are what QUIC.Trace adds to the counters, from quic-go's
// qlog events, kept as values rather than written out.
type quicTraceCounts struct {
	traced            atomic.Int64 // connections traced
	blockedSent       atomic.Int64 // DATA_BLOCKED and STREAM_DATA_BLOCKED frames sent
	blockedReceived   atomic.Int64 // and received
	congestionWindow  atomic.Int64 // the last congestion window any connection reported, bytes
	congestionUpdates atomic.Int64 // metrics updates that changed it
}

// tracer returns a quic.Config.Tracer that counts into q.
func (q *quicTraceCounts) tracer() func(context.Context, bool, quic.ConnectionID) qlogwriter.Trace {
	return func(context.Context, bool, quic.ConnectionID) qlogwriter.Trace {
		q.traced.Add(1)
		return quicTrace{q}
	}
}

// quicTrace is a qlogwriter.Trace and Recorder that only counts.
type quicTrace struct{ q *quicTraceCounts }

func (t quicTrace) AddProducer() qlogwriter.Recorder { return t }
func (t quicTrace) Close() error                     { return nil }

// RecordEvent counts one event; quic-go calls it on the connection's
// goroutines.
func (t quicTrace) RecordEvent(ev qlogwriter.Event) {
	switch e := ev.(type) {
	case qlog.PacketSent:
		t.q.blockedSent.Add(blockedFrames(e.Frames))
	case qlog.PacketReceived:
		t.q.blockedReceived.Add(blockedFrames(e.Frames))
	case qlog.MetricsUpdated:
		if e.CongestionWindow > 0 {
			t.q.congestionWindow.Store(int64(e.CongestionWindow))
			t.q.congestionUpdates.Add(1)
		}
	}
}

// blockedFrames counts the flow-control blocked frames among fs: a sender
// says it had data and no window.
func blockedFrames(fs []qlog.Frame) int64 {
	var n int64
	for _, f := range fs {
		switch f.Frame.(type) {
		case *qlog.DataBlockedFrame, *qlog.StreamDataBlockedFrame:
			n++
		}
	}
	return n
}
