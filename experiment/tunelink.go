package experiment

import (
	"context"

	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/tune"
	"github.com/httpvs/httpvs/tune/tuneresult"
)

// Tune runs package tune's search (`httpvs tune`): on loopback when link
// is nil, else across link, which it makes and calibrates first and
// closes once the search is over (o.Link is then Tune's to set; o's zero
// Trial and Budget are sized for the link). Like Run across a link it
// needs Linux and root (or a user namespace); a *netem.SetupError says
// what is missing. It lives here rather than in package tune, which takes
// a link made by anyone and so does not import this package.
func Tune(ctx context.Context, o tune.Options, link *LinkSpec) (*tuneresult.Report, error) {
	if link == nil {
		return tune.Run(ctx, o)
	}
	l, err := openLink(*link)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	if err := l.Calibrate(ctx); err != nil {
		return nil, err
	}
	n := l.Netem()
	o.Link = &tune.Link{Client: n.Client(), Server: n.Server(), Host: netem.ServerAddr.String(), Spec: link.Spec, Net: l.Desc}
	return tune.Run(ctx, o)
}
