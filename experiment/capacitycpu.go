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

// watch sets cfg's MeasureStart and MeasureEnd to read the server's
// figures from src around a step's measured window over p (to base,
// with client's settings), as the matrix does around a repetition. It
// returns the window, whose cores are the server's once the step has
// run, and what closes the client the counters are read with.
func watch(ctx context.Context, src *servercpu.Source, m matrix.Options, client transport.ClientOptions, p transport.Protocol, base string, cfg *load.Config) (w *cpuWindow, done func()) {
	if m.NoServerStats {
		src.TurnOff()
	}
	statsOpts := client
	if m.StatsNetwork != nil {
		statsOpts.Network = m.StatsNetwork // the server's side of the link: its counters do not cross it
	}
	c, err := transport.NewClient(statsOpts)
	if err != nil {
		return &cpuWindow{}, func() {} // no window to read: cores unknown
	}
	network, hostport, sockErr := servercpu.Socket(base, p == transport.H3)
	w = &cpuWindow{}
	read := func(limit time.Duration) *stats.ServerStats {
		st, _ := src.Snapshot(ctx, c, base+"/stats", limit, p.String(), network, hostport, sockErr)
		return st
	}
	cfg.MeasureStart = func() { w.before = read(serverctl.StatsTimeout) }
	cfg.MeasureEnd = func(failed int64) {
		if w.before != nil {
			w.after = read(serverctl.StatsTimeoutAfter(failed))
		}
	}
	return w, func() { c.Close() }
}

// cpuWindow is the server's figures read around one step's measured
// window: its counters, or its processes' CPU from /proc.
type cpuWindow struct {
	before, after *stats.ServerStats
}

// cores is the server's CPU over the window, cores; nil when unknown:
// a snapshot missing, one end the counters and the other /proc, or the
// counters reset.
func (w *cpuWindow) cores() *float64 {
	if w.before == nil || w.after == nil || (w.before.Protocols == nil) != (w.after.Protocols == nil) {
		return nil
	}
	d := w.after.Sub(*w.before)
	if w.after.Protocols != nil {
		var err error
		if d, err = w.after.Delta(*w.before); err != nil {
			return nil
		}
	}
	if d.Seconds <= 0 {
		return nil
	}
	c := d.Process.CPUSeconds() / d.Seconds
	return &c
}
