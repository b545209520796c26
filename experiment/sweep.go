package experiment

import (
	"context"
	"errors"
	"time"

	"github.com/httpvs/httpvs/results"
)

// Sweep runs the experiment o describes once across each of o.Links, one
// after another (`httpvs run --net lan --net 4g`), and returns one
// results per link, in the order of o.Links: what report.When and its
// kin take for the verdict across the links. Each link is a Run of its
// own, across that link; its budget (o.Budget, or the estimate's)
// counts from its own start, not from o.Began. OnLink and OnLinkDone
// hear of each link as it starts and ends.
//
// An interrupt (ctx done) ends the sweep after the link it cut short,
// whose results are marked Partial: the results hold the links measured
// so far, fewer than o.Links. An error setting up a link (the link, the
// child server, options out of range: as Run's) ends the sweep with it,
// and the results of the links before it.
func Sweep(ctx context.Context, o SweepOptions) ([]*results.Results, error) {
	if err := notInChild(); err != nil {
		return nil, err
	}
	if len(o.Links) == 0 {
		return nil, &OptionsError{errors.New("a sweep needs links (Links); Run measures one link or loopback")}
	}
	var runs []*results.Results
	for i := range o.Links {
		if ctx.Err() != nil {
			break
		}
		if o.OnLink != nil {
			o.OnLink(i, o.Links[i])
		}
		one := Options{Base: o.Base, Link: &o.Links[i]}
		one.Began = time.Now()
		res, err := Run(ctx, one)
		if err != nil {
			return runs, err
		}
		runs = append(runs, res)
		if o.OnLinkDone != nil {
			if err := o.OnLinkDone(i, res); err != nil {
				return runs, err
			}
		}
	}
	return runs, nil
}
