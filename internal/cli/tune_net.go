package cli

import "github.com/httpvs/httpvs/experiment"

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
