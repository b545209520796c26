package matrix

import (
	"context"
	"time"

	"github.com/httpvs/httpvs/internal/servercpu"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// serverStats reads the server's figures for col, giving up on its
// counters after limit (servercpu.Source.Snapshot): its counters, or,
// once the target has said it serves none, its process's CPU from /proc
// (a snapshot without Protocols: see serverCPU); nil and a reason when
// neither is available.
func (r *runner) serverStats(ctx context.Context, col column, limit time.Duration) (*stats.ServerStats, string) {
	if r.opts.NoServerStats {
		r.proc.TurnOff()
	}
	network, hostport, err := socketOf(r.opts.Target, col)
	return r.proc.Snapshot(ctx, r.statsClient, r.statsURL, limit, col.name, network, hostport, err)
}

// socketOf is the network and address col's connections go to: UDP
// for h3, TCP else; the native gRPC column's own address.
func socketOf(t Target, col column) (network, hostport string, err error) {
	if col.native {
		return "tcp", t.GRPC, nil
	}
	return servercpu.Socket(targetBase(t, col.proto), col.proto == transport.H3)
}
