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
// own, with Link set to it; its budget (o.Budget, or the estimate's)
// counts from its own start, not from o.Began. OnLink and OnLinkDone
// hear of each link as it starts and ends.
//
// An interrupt (ctx done) ends the sweep after the link it cut short,
// whose results are marked Partial: the results hold the links measured
// so far, fewer than o.Links. An error setting up a link (the link, the
// child server, options out of range: as Run's) ends the sweep with it,
// and the results of the links before it.
func Sweep(ctx context.Context, o Options) ([]*results.Results, error) {
	switch {
	case len(o.Links) == 0:
		return nil, &OptionsError{errors.New("a sweep needs links (Links); Run measures one link or loopback")}
	case o.Link != nil:
		return nil, &OptionsError{errors.New("a sweep measures Links; Link is for Run: give one")}
	case len(o.Go.Versions) > 0:
		return nil, &OptionsError{errors.New("go versions (Go) are measured on loopback, not across links")}
	}
	var runs []*results.Results
	for i := range o.Links {
		if ctx.Err() != nil {
			break
		}
		if o.OnLink != nil {
			o.OnLink(i, o.Links[i])
		}
		one := o
		one.Links, one.Link, one.Began = nil, &o.Links[i], time.Now()
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
