package cli

import (
	"context"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/tune"
	"github.com/httpvs/httpvs/units"
)

// netTrialsPerProtocol sizes tune's budget across a link when --budget
// is not given: trials there last seconds, not 300 ms, and a transport's
// final measurements take 8 of them, so 20 leave 6 candidate pairs.
const netTrialsPerProtocol = 20

// tuneLink parses tune's --net (one link); nil without one.
func tuneLink(list netList) (*experiment.LinkSpec, error) {
	switch len(list) {
	case 0:
		return nil, nil
	case 1:
		p, err := oneLink(list[0])
		return &p, err
	}
	return nil, usagef("--net given %d times: tune searches across one link; run one search per link (httpvs run --net A --net B compares transports across several)", len(list))
}

// netTrial is a trial long enough across s that a new connection's
// handshakes and slow start are a third of it at most: three times slow
// start to the link's rate (its calibrated goodput when the rate is
// unlimited) and four round trips, and never shorter than tune's default.
func netTrial(s netem.Spec, downGoodput float64) time.Duration {
	if s.Down.Rate <= 0 && downGoodput > 0 {
		s.Down.Rate = units.BitsPerSecond(downGoodput)
	}
	return max(tune.DefaultTrial, 3*(netem.SlowStart(s, false)+4*s.RTT()))
}

// tuneAcross makes and calibrates p's link for opts, sets the trial and
// budget a search across it needs unless given (set), and returns what
// closes the link.
func tuneAcross(ctx context.Context, p *experiment.LinkSpec, opts *tune.Options, set map[string]bool) (func(), error) {
	nr, err := experiment.OpenLink(*p)
	if err != nil {
		return nil, err
	}
	if err := nr.Calibrate(ctx); err != nil {
		nr.Close()
		return nil, err
	}
	opts.Link = &tune.Link{Client: nr.Netem().Client(), Server: nr.Netem().Server(), Host: netem.ServerAddr.String(), Net: nr.Desc}
	if !set["trial"] {
		opts.Trial = netTrial(p.Spec, nr.Desc.Calibration.DownGoodputBitsPerSecond)
	}
	if !set["budget"] {
		opts.Budget = max(tune.DefaultBudget, netTrialsPerProtocol*opts.Trial*time.Duration(max(1, len(opts.Protocols))))
	}
	return nr.Close, nil
}
