package matrix

import (
	"context"
	"sync"
	"time"

	"github.com/httpvs/httpvs/internal/servercpu"
	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// procCPU reads the server's CPU from /proc when the target serves no
// counters (not httpvs serve, or --no-server-stats) but listens on this
// machine's loopback: the processes holding each column's listening
// socket (servercpu.Reader), their CPU time and the wall clock read
// around every repetition as the counters would be. Its methods are
// safe for concurrent use.
type procCPU struct {
	mu    sync.Mutex
	start time.Time
	// noCounters is why the target's counters are not read: set once
	// the target answered that it serves none, or they are turned off.
	noCounters string
	cpu        servercpu.Reader
}

// serverStats reads the server's figures for col, giving up on its
// counters after limit: its counters, or, once the target has said it
// serves none, its process's CPU from /proc (a snapshot without
// Protocols: see cpu); nil and a reason when neither is available.
func (r *runner) serverStats(ctx context.Context, col column, limit time.Duration) (*stats.ServerStats, string) {
	pc := &r.proc
	pc.mu.Lock()
	noCounters := pc.noCounters
	pc.mu.Unlock()
	if noCounters == "" && r.opts.NoServerStats {
		noCounters = "server counters not read (turned off)"
	}
	if noCounters == "" {
		st, note, err := serverctl.ReachStats(ctx, r.statsClient, r.statsURL, limit)
		if st != nil || err != nil || ctx.Err() != nil {
			return st, note // the counters, or no answer: unknown, as any repetition's
		}
		noCounters = note
	}
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.noCounters = noCounters
	network, hostport, err := socketOf(r.opts.Target, col)
	if err != nil {
		return nil, noCounters + "; server CPU unknown: " + err.Error()
	}
	user, sys, err := pc.cpu.Read(col.name, network, hostport)
	if err != nil {
		return nil, noCounters + "; server CPU unknown: " + err.Error()
	}
	if pc.start.IsZero() {
		pc.start = time.Now()
	}
	return &stats.ServerStats{Seconds: time.Since(pc.start).Seconds(), Process: stats.ProcessStats{CPUUserSeconds: user, CPUSystemSeconds: sys}}, noCounters
}

// socketOf is the network and address col's connections go to: UDP
// for h3, TCP else; the native gRPC column's own address.
func socketOf(t Target, col column) (network, hostport string, err error) {
	if col.native {
		return "tcp", t.GRPC, nil
	}
	return servercpu.Socket(targetBase(t, col.proto), col.proto == transport.H3)
}
