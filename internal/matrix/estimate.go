package matrix

import (
	"time"

	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/transport"
)

// EstimateRun works out what Run(ctx, opts) will cost, assuming every
// transport moves at the link's goodput (a transport slower than the link
// takes longer: its transfers are sized by the link). Its error is for
// options Run would refuse.
func EstimateRun(opts plan.Options) (Estimate, error) {
	return estimateRun(Options{opts})
}

// estimateRun is EstimateRun with the runner's methods on its options.
func estimateRun(opts Options) (Estimate, error) {
	if err := opts.fill(); err != nil {
		return Estimate{}, err
	}
	scenarios, err := opts.expand()
	if err != nil {
		return Estimate{}, err
	}
	e := Estimate{Rounds: opts.Repeat, MaxRounds: opts.MaxRepeat, Time: opts.crossoverCost() + opts.browserCost()}
	r := &runner{opts: opts}
	for _, sc := range scenarios {
		for _, col := range r.columns(sc) {
			e.Cells++
			e.Time += opts.checkCost(sc, col.proto) + time.Duration(opts.repeat(sc)+opts.warmupRounds())*opts.roundCost(sc, col.proto)
		}
	}
	return e, nil
}

// coldCost is a cold request's expected time over p: its round trips
// across the link (coldRTTs), or a few milliseconds on loopback.
func (o *Options) coldCost(p transport.Protocol, resumed bool) time.Duration {
	k, _ := linkmodel.ColdRTTs(p.String(), resumed)
	return time.Duration(max(k, 1))*o.RTT + 5*time.Millisecond
}

// checkCost is the expected time of a cell's check before its rounds
// (runner.prepare): one request or one small transfer per stream, and on
// loopback a transfer's sizing probe.
func (o *Options) checkCost(sc Scenario, p transport.Protocol) time.Duration {
	d := o.coldCost(p, false) + o.RTT
	if sc.Transfer() && o.Size == 0 && o.linkSize(sc) == 0 {
		d += max(min(o.Duration/2, maxProbe), minProbe)
	}
	return d
}

// roundCost is the expected time of one round of sc over p.
func (o *Options) roundCost(sc Scenario, p transport.Protocol) time.Duration {
	cold := o.coldCost(p, sc.Resume())
	switch {
	case sc.ColdStart():
		return o.Duration + cold
	case sc.PageLoad():
		page := cold
		if o.Link != nil {
			if b := linkmodel.PageBound(p.String(), o.Link); b != nil {
				page = time.Duration(b.Value * float64(time.Second))
			}
		}
		return max(o.Duration, pageMinUnits*page) + page
	case sc.HeadOfLine():
		return cold + max(o.Warmup, holWarmRTTs*o.RTT) + o.Duration + o.RTT
	case sc.Transfer():
		return cold + o.transferTime(sc, p) + o.RTT
	}
	r := &runner{opts: *o}
	return cold + o.Warmup + r.firstTry(sc) + o.RTT
}
