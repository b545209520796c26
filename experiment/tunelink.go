package experiment

import (
	"context"

	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/tune"
)

// OpenTuneLink makes and calibrates s's emulated link for a tune search
// across it (`httpvs tune --net`): the *tune.Link it returns is
// tune.Options.Link, whose zero Trial and Budget tune.Run sizes for the
// link, and the func closes the link once the search is over. Like
// openLink it needs Linux and root (or a user namespace); a
// *netem.SetupError says what is missing. It lives here rather than in
// package tune, which takes a link made by anyone and so does not import
// this package.
func OpenTuneLink(ctx context.Context, s LinkSpec) (*tune.Link, func(), error) {
	l, err := openLink(s)
	if err != nil {
		return nil, nil, err
	}
	if err := l.Calibrate(ctx); err != nil {
		l.Close()
		return nil, nil, err
	}
	n := l.Netem()
	return &tune.Link{Client: n.Client(), Server: n.Server(), Host: netem.ServerAddr.String(), Spec: s.Spec, Net: l.Desc}, l.Close, nil
}
