// Package tune searches the knobs that matter for a single-stream download
// over h2c, h2 and h3 (client frame size, client body read size, stream
// receive windows, the server's write chunk, QUIC windows) for the
// configuration closest to HTTP/1.1, which it measures in the same run as
// the baseline. The search is bounded: a coordinate descent over a coarse
// grid, one knob at a time from Go's own defaults, repeated while it
// improves and time is left, then the best is measured again against h1.
package tune

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/httpvs/httpvs/internal/fielderr"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/tune/tuneresult"
	"github.com/httpvs/httpvs/units"
)

// Options describe a search.
type Options struct {
	// Protocols to tune; h1 is always measured as the baseline. Empty means
	// h2c, h2 and h3.
	Protocols []transport.Protocol
	// Budget bounds the whole search; zero means 90 s, and
	// across a Link at least LinkTrialsPerProtocol trials per transport.
	Budget time.Duration
	// Trial is each measurement's length; zero means 300 ms, and
	// across a Link LinkTrial of its Spec.
	Trial time.Duration
	// Progress, if set, is called before each measurement.
	Progress func(protocol string, s tuneresult.Settings)
	// Link, if set, runs the search across an emulated link instead of
	// loopback.
	Link *Link
}

// Link is where a search runs when not on loopback: its servers listen
// inside Server at Host, its client makes its sockets inside Client (an
// emulated link's two network namespaces). experiment.Tune makes and
// calibrates one from a link's text and searches across it, as `httpvs
// tune --net` does (there, not here: package experiment imports this one).
type Link struct {
	Client transport.Network
	Server transport.Network
	// Host is the servers' address inside Server.
	Host string
	// Spec is the link as emulated: its rate and round trip size the
	// trials when Options.Trial is zero (LinkTrial).
	Spec netem.Spec
	// Net is the link as calibrated: the report records it and the
	// diagnosis reads its round trip (a window-limited transfer).
	Net *results.Net
}

// Run searches. Its error is for options it cannot use (a
// *config.FieldError) or a server that cannot start; a search cut short
// by the budget or ctx returns what it found, Partial.
func Run(ctx context.Context, opts Options) (*tuneresult.Report, error) {
	opts = opts.withDefaults()
	switch {
	case opts.Budget < time.Second || opts.Budget > 24*time.Hour:
		return nil, fielderr.New("Budget", opts.Budget, "1s to 24h")
	case opts.Trial < 20*time.Millisecond || opts.Trial > time.Minute:
		return nil, fielderr.New("Trial", opts.Trial, "20ms to 1m")
	case slices.Contains(opts.Protocols, transport.H1):
		return nil, fielderr.New("Protocols", transport.H1, "some of h2c, h2, h1-tls and h3: h1 is the baseline")
	}
	start := time.Now()
	parent := ctx
	ctx, cancel := context.WithDeadline(ctx, start.Add(opts.Budget))
	defer cancel()
	b := &bench{opts: opts, servers: map[units.Bytes]*server.Running{},
		spent: map[transport.Protocol]time.Duration{}, measured: map[transport.Protocol]int{}}
	defer b.close()
	rep := &tuneresult.Report{}
	if opts.Link != nil {
		rep.Net = opts.Link.Net
	}
	// Each transport gets an equal share of what is left.
	for i, p := range opts.Protocols {
		share := time.Until(start.Add(opts.Budget)) / time.Duration(len(opts.Protocols)-i)
		res, err := b.search(ctx, p, time.Now().Add(share))
		if errors.Is(err, errCutOff) && parent.Err() != nil {
			break // interrupted: keep what was measured in full
		}
		if err != nil {
			return nil, err
		}
		rep.Results = append(rep.Results, res)
	}
	rep.Seconds = time.Since(start).Seconds()
	rep.Partial = ctx.Err() != nil
	return rep, nil
}

// errCutOff is a measurement the budget or an interrupt ended before it
// moved anything: no figure, rather than 0 B/s.
var errCutOff = errors.New("cut off before it moved anything")
