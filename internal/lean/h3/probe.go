package h3

import (
	"context"
	"sync"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/qlog"
	"github.com/quic-go/quic-go/qlogwriter"

	"github.com/httpvs/httpvs/internal/dial"
)

// ProbeMaxStreams opens one QUIC connection to p's target and reads the
// server's initial_max_streams_bidi transport parameter (RFC 9000, section
// 18.2): how many request streams it lets the client open at once (a
// quic-go server keeps it at Config.MaxIncomingStreams, granting one more
// as each stream ends); announced is false when the server sent none. It
// sends no request and closes the connection.
func (p *Client) ProbeMaxStreams(ctx context.Context) (limit int, announced bool, err error) {
	tr := &paramsTrace{}
	conf := p.qconf.Clone()
	conf.Tracer = func(context.Context, bool, quic.ConnectionID) qlogwriter.Trace { return tr }
	qc, err := dial.QUIC(ctx, p.t.Network, p.t.Addr, p.tlsConf, conf)
	if err != nil {
		return 0, false, err
	}
	defer qc.CloseWithError(h3NoError, "")
	select {
	case <-qc.HandshakeComplete():
	case <-qc.Context().Done():
		return 0, false, context.Cause(qc.Context())
	case <-ctx.Done():
		return 0, false, ctx.Err()
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if !tr.got {
		return 0, false, nil
	}
	return int(min(tr.maxStreams, 1<<31-1)), true, nil
}

// paramsTrace is a qlog trace that keeps only the server's transport
// parameters: a probe's connection is the only one that carries it, since
// quic-go builds an event per packet for a traced connection.
type paramsTrace struct {
	mu         sync.Mutex
	got        bool
	maxStreams int64
}

func (t *paramsTrace) AddProducer() qlogwriter.Recorder { return t }
func (t *paramsTrace) Close() error                     { return nil }

// RecordEvent keeps the server's initial_max_streams_bidi.
func (t *paramsTrace) RecordEvent(ev qlogwriter.Event) {
	if p, ok := ev.(qlog.ParametersSet); ok && p.SentBy.String() == "server" {
		t.mu.Lock()
		t.got, t.maxStreams = true, p.InitialMaxStreamsBidi
		t.mu.Unlock()
	}
}
