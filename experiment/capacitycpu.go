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
// settings). It returns the window, whose cores are the server's once
// the step has run, and what closes the client the counters are read
// with.
func (cc *capacityCPU) watch(ctx context.Context, m matrix.Options, client transport.ClientOptions, p transport.Protocol, base string, cfg *load.Config) (w *cpuWindow, done func()) {
	if cc.noCounters == "" && m.NoServerStats {
		cc.noCounters = "server counters not read (turned off)"
	}
	w = &cpuWindow{cc: cc, ctx: ctx, p: p, base: base}
	done = func() {}
	if cc.noCounters == "" {
		statsOpts := client
		if m.StatsNetwork != nil {
			statsOpts.Network = m.StatsNetwork // the server's side of the link: its counters do not cross it
		}
		if c, err := transport.NewClient(statsOpts); err == nil {
			w.stats, done = c, func() { c.Close() }
		}
	}
	cfg.MeasureStart, cfg.MeasureEnd = w.start, w.end
	return w, done
}

// cpuWindow is the server's CPU read around one step's measured window:
// its counters, or its processes' CPU from /proc.
type cpuWindow struct {
	cc            *capacityCPU
	ctx           context.Context
	p             transport.Protocol
	base          string
	stats         *transport.Client // nil: the counters are not read
	before, after *stats.ServerStats
	p0, p1        procReading
}

func (w *cpuWindow) start() {
	if w.stats != nil && w.cc.noCounters == "" {
		st, note, err := serverctl.ReachStats(w.ctx, w.stats, w.base+"/stats", serverctl.StatsTimeout)
		if st != nil || err != nil || w.ctx.Err() != nil {
			w.before = st // the counters, or no answer: unknown
			return
		}
		w.cc.noCounters = note
	}
	if w.cc.noCounters != "" {
		w.p0 = w.readProc()
	}
}

func (w *cpuWindow) end(failed int64) {
	switch {
	case w.before != nil:
		w.after, _ = serverctl.FetchStats(w.ctx, w.stats, w.base+"/stats", serverctl.StatsTimeoutAfter(failed))
	case w.p0.ok:
		w.p1 = w.readProc()
	}
}

// readProc reads the CPU of the processes holding the socket w's
// connections reach.
func (w *cpuWindow) readProc() procReading {
	network, hostport, err := servercpu.Socket(w.base, w.p == transport.H3)
	if err != nil {
		return procReading{}
	}
	user, sys, err := w.cc.proc.Read(w.p.String(), network, hostport)
	return procReading{cpu: user + sys, at: time.Now(), ok: err == nil}
}

// cores is the server's CPU over the window, cores; nil when unknown.
func (w *cpuWindow) cores() *float64 {
	var c float64
	switch {
	case w.before != nil && w.after != nil:
		d, err := w.after.Delta(*w.before)
		if err != nil || d.Seconds <= 0 {
			return nil
		}
		c = d.Process.CPUSeconds() / d.Seconds
	case w.p0.ok && w.p1.ok && w.p1.at.After(w.p0.at):
		c = (w.p1.cpu - w.p0.cpu) / w.p1.at.Sub(w.p0.at).Seconds()
	default:
		return nil
	}
	return &c
}
