package matrix

import (
	"context"
	"time"

	"github.com/httpvs/httpvs/internal/procstat"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transfer"
	"github.com/httpvs/httpvs/transport"
)

// crossoverProbe is how long each crossover measurement runs.
const crossoverProbe = 400 * time.Millisecond

// crossover measures every transport once without the link: over
// StatsNetwork (the server's namespace), where the child server is on
// loopback. Only across a link: on loopback the cells themselves are it.
func (r *runner) crossover(ctx context.Context) []results.Crossover {
	if !r.opts.onLink() || r.opts.StatsNetwork == nil {
		return nil
	}
	var out []results.Crossover
	for _, p := range r.opts.Protocols {
		if ctx.Err() != nil || targetBase(r.opts.Target, p) == "" {
			continue
		}
		out = append(out, r.crossoverOf(ctx, p))
	}
	return out
}

// crossoverOf measures p's download and small requests on loopback.
func (r *runner) crossoverOf(ctx context.Context, p transport.Protocol) results.Crossover {
	x := results.Crossover{Protocol: p.String()}
	sc, _ := ScenarioByName("download")
	plan := r.transferPlan(sc, p, probeSize)
	plan.Client.Network = r.opts.StatsNetwork
	plan.Timeout = crossoverProbe
	proc := procstat.Sample()
	res, err := transfer.Run(ctx, plan)
	cpu := procstat.Sample().Sub(proc).CPUSeconds()
	switch {
	case err != nil:
		x.Error = err.Error()
	case res.Bytes <= 0 || res.Seconds <= 0:
		x.Error = "download moved nothing: " + res.FirstError
	default:
		x.BytesPerSecond = float64(res.Bytes) / res.Seconds
		x.ClientCPUPerGB = cpu / (float64(res.Bytes) / 1e9)
	}
	small, _ := ScenarioByName("small-concurrent")
	cfg := r.loadConfig(small, column{name: p.String(), proto: p}, func(c *load.Config) {
		c.Client.Network = r.opts.StatsNetwork
		c.Duration, c.Warmup = crossoverProbe, crossoverProbe/4
	})
	lr, err := load.Run(ctx, cfg)
	switch {
	case err != nil:
		x.Error = joinNote(x.Error, err.Error())
	case lr.Errors.Total > 0:
		x.Error = joinNote(x.Error, "small requests failed: "+lr.FirstError)
	default:
		x.RequestsPerSecond = lr.RequestsPerSecond
	}
	return x
}

// crossoverCost is what crossover is expected to take.
func (o *Options) crossoverCost() time.Duration {
	if !o.onLink() || o.StatsNetwork == nil {
		return 0
	}
	return time.Duration(len(o.Protocols)) * (2*crossoverProbe + crossoverProbe/4 + 100*time.Millisecond)
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
