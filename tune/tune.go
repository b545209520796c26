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
	"fmt"
	"time"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// Defaults used when Options fields are zero.
const (
	DefaultBudget = 90 * time.Second
	DefaultTrial  = 300 * time.Millisecond
)

// Options describe a search.
type Options struct {
	// Protocols to tune; h1 is always measured as the baseline. Empty means
	// h2c, h2 and h3.
	Protocols []transport.Protocol
	// Budget bounds the whole search; zero means DefaultBudget.
	Budget time.Duration
	// Trial is each measurement's length; zero means DefaultTrial.
	Trial time.Duration
	// Progress, if set, is called before each measurement.
	Progress func(protocol string, s Settings)
	// Link, if set, runs the search across an emulated link instead of
	// loopback.
	Link *Link
}

// Link is where a search runs when not on loopback: its servers listen
// inside Server at Host, its client makes its sockets inside Client (an
// emulated link's two network namespaces).
type Link struct {
	Client transport.Network
	Server transport.Network
	// Host is the servers' address inside Server.
	Host string
	// Net is the link as calibrated: the report records it and the
	// diagnosis reads its round trip (a window-limited transfer).
	Net *results.Net
}

// Settings are one point of the search space. Zero fields mean Go's (or
// quic-go's) defaults.
type Settings struct {
	ReadSize         units.Bytes `json:"read_size"`           // client body read buffer
	MaxReadFrameSize units.Bytes `json:"max_read_frame_size"` // client HTTP2Config.MaxReadFrameSize
	StreamWindow     units.Bytes `json:"stream_window"`       // client HTTP2Config.MaxReceiveBufferPerStream
	WriteSize        units.Bytes `json:"write_size"`          // server handler write chunk
	QUICStreamWindow units.Bytes `json:"quic_stream_window"`  // client quic.Config.MaxStreamReceiveWindow
	QUICConnWindow   units.Bytes `json:"quic_conn_window"`    // client quic.Config.MaxConnectionReceiveWindow
}

// Result is one transport's outcome.
type Result struct {
	Protocol string `json:"protocol"`
	// DefaultRatioToH1 is Go's defaults' throughput over h1's; RatioToH1
	// the best configuration's, both from the final measurements.
	DefaultRatioToH1 float64  `json:"default_ratio_to_h1"`
	RatioToH1        float64  `json:"ratio_to_h1"`
	Default          Settings `json:"default_settings"`
	Best             Settings `json:"settings"`
	// BestBytesPerSecond and H1BytesPerSecond are the final measurements.
	BestBytesPerSecond    float64 `json:"best_bytes_per_second"`
	DefaultBytesPerSecond float64 `json:"default_bytes_per_second"`
	H1BytesPerSecond      float64 `json:"h1_bytes_per_second"`
	Trials                int     `json:"trials"`
	// Gain is the best configuration's rate over the defaults', the
	// geometric mean of the final rounds' paired ratios, with its 95%
	// interval GainLow..GainHigh (Student's t on the logarithms); Pairs
	// is how many final rounds paired them.
	Gain     float64 `json:"gain"`
	GainLow  float64 `json:"gain_low"`
	GainHigh float64 `json:"gain_high"`
	Pairs    int     `json:"pairs"`
	// DefaultsBest says the best configuration found did not measure
	// faster than Go's defaults beyond doubt in the final rounds (its
	// gain's interval reaches 1, or fewer than two rounds paired): Best
	// is then Default and there is no code to paste.
	DefaultsBest bool `json:"defaults_best"`
	// Diagnosis explains the default configuration's gap (matrix's
	// rules); GoCode is the best configuration to paste, "" when the
	// defaults are best.
	Diagnosis []string `json:"diagnosis"`
	GoCode    string   `json:"go_code"`
}

// Report is a whole search.
type Report struct {
	Seconds float64  `json:"seconds"`
	Results []Result `json:"results"`
	Partial bool     `json:"partial"` // the budget or an interrupt cut the search short
	// Net is the emulated link the search ran across (Options.Link); nil
	// on loopback.
	Net *results.Net `json:"net,omitempty"`
}

// Run searches. Its error is for options it cannot use or a server that
// cannot start; a search cut short by the budget or ctx returns what it
// found, Partial.
func Run(ctx context.Context, opts Options) (*Report, error) {
	if len(opts.Protocols) == 0 {
		opts.Protocols = []transport.Protocol{transport.H2C, transport.H2, transport.H3}
	}
	if opts.Budget == 0 {
		opts.Budget = DefaultBudget
	}
	if opts.Trial == 0 {
		opts.Trial = DefaultTrial
	}
	switch {
	case opts.Budget < time.Second || opts.Budget > 24*time.Hour:
		return nil, fmt.Errorf("budget %v: want 1s to 24h", opts.Budget)
	case opts.Trial < 20*time.Millisecond || opts.Trial > time.Minute:
		return nil, fmt.Errorf("trial %v: want 20ms to 1m", opts.Trial)
	}
	for _, p := range opts.Protocols {
		if p == transport.H1 {
			return nil, errors.New("h1 is the baseline: tune h2c, h2, h1-tls or h3")
		}
	}
	start := time.Now()
	parent := ctx
	ctx, cancel := context.WithDeadline(ctx, start.Add(opts.Budget))
	defer cancel()
	b := &bench{opts: opts, servers: map[units.Bytes]*server.Running{},
		spent: map[transport.Protocol]time.Duration{}, measured: map[transport.Protocol]int{}}
	defer b.close()
	rep := &Report{}
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
