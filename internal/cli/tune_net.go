package cli

import (
	"context"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/tune"
)

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

// tuneAcross makes and calibrates p's link for opts (whose zero trial
// and budget tune sizes for it), and returns what closes the link.
func tuneAcross(ctx context.Context, p *experiment.LinkSpec, opts *tune.Options) (func(), error) {
	nr, err := experiment.OpenLink(*p)
	if err != nil {
		return nil, err
	}
	if err := nr.Calibrate(ctx); err != nil {
		nr.Close()
		return nil, err
	}
	opts.Link = &tune.Link{Client: nr.Netem().Client(), Server: nr.Netem().Server(), Host: netem.ServerAddr.String(), Spec: p.Spec, Net: nr.Desc}
	return nr.Close, nil
}
