package experiment

import (
	"context"
	"time"

	"github.com/httpvs/httpvs/internal/matrix"
	"github.com/httpvs/httpvs/internal/servercpu"
	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// capacityCPU reads the server's CPU around each rate a capacity search
// tries: its counters (httpvs serve's GET /stats), or, once the target
// has answered that it serves none or they are turned off, the CPU of
// the processes holding its socket, from /proc, when it listens on this
// machine's loopback (as the matrix does). The search tries one rate at
// a time, so it is used from one goroutine at a time.
type capacityCPU struct {
	// noCounters is why the counters are not read: set once the target
	// answered that it serves none, or they are turned off.
	noCounters string
	proc       servercpu.Reader
}

// procReading is the CPU seconds of the server's processes at a time.
type procReading struct {
	cpu float64
	at  time.Time
	ok  bool
}

// watch sets cfg's MeasureStart and MeasureEnd to read the server's CPU
// around a step's measured window over p (to base, with client's
// settings). It returns the cores the server used in that window, to
// call once the step has run (nil when unknown), and what closes the
// client the counters are read with.
func (cc *capacityCPU) watch(ctx context.Context, m matrix.Options, client transport.ClientOptions, p transport.Protocol, base string, cfg *load.Config) (cores func() *float64, done func()) {
	if cc.noCounters == "" && m.NoServerStats {
		cc.noCounters = "server counters not read (turned off)"
	}
	var statsClient *transport.Client
	if cc.noCounters == "" {
		statsOpts := client
		if m.StatsNetwork != nil {
			statsOpts.Network = m.StatsNetwork // the server's side of the link: its counters do not cross it
		}
		if c, err := transport.NewClient(statsOpts); err == nil {
			statsClient = c
		}
	}
	readProc := func() procReading {
		network, hostport, err := servercpu.Socket(base, p == transport.H3)
		if err != nil {
			return procReading{}
		}
		user, sys, err := cc.proc.Read(p.String(), network, hostport)
		return procReading{cpu: user + sys, at: time.Now(), ok: err == nil}
	}
	var (
		before, after *stats.ServerStats
		p0, p1        procReading
	)
	cfg.MeasureStart = func() {
		if statsClient != nil && cc.noCounters == "" {
			st, note, err := serverctl.ReachStats(ctx, statsClient, base+"/stats", serverctl.StatsTimeout)
			if st != nil || err != nil || ctx.Err() != nil {
				before = st // the counters, or no answer: unknown
				return
			}
			cc.noCounters = note
		}
		if cc.noCounters != "" {
			p0 = readProc()
		}
	}
	cfg.MeasureEnd = func(failed int64) {
		switch {
		case before != nil:
			after, _ = serverctl.FetchStats(ctx, statsClient, base+"/stats", serverctl.StatsTimeoutAfter(failed))
		case p0.ok:
			p1 = readProc()
		}
	}
	cores = func() *float64 {
		var c float64
		switch {
		case before != nil && after != nil:
			d, err := after.Delta(*before)
			if err != nil || d.Seconds <= 0 {
				return nil
			}
			c = d.Process.CPUSeconds() / d.Seconds
		case p0.ok && p1.ok && p1.at.After(p0.at):
			c = (p1.cpu - p0.cpu) / p1.at.Sub(p0.at).Seconds()
		default:
			return nil
		}
		return &c
	}
	done = func() {
		if statsClient != nil {
			statsClient.Close()
		}
	}
	return cores, done
}
