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
	"net"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/matrix"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transfer"
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

// defaults are Go's own: what a program gets with zero config and
// io.Copy(io.Discard, resp.Body), 8 KiB reads.
func defaults(p transport.Protocol) Settings {
	s := Settings{ReadSize: 8 * units.KiB, WriteSize: 8 * units.KiB}
	if p.Version() == 2 {
		s.MaxReadFrameSize = 16 * units.KiB
	}
	return s
}

// knob is one dimension of the search.
type knob struct {
	name   string
	values []units.Bytes
	get    func(*Settings) *units.Bytes
}

func knobs(p transport.Protocol) []knob {
	read := knob{"read size", []units.Bytes{8 * units.KiB, 64 * units.KiB, 256 * units.KiB, units.MiB}, func(s *Settings) *units.Bytes { return &s.ReadSize }}
	write := knob{"server write size", []units.Bytes{8 * units.KiB, 64 * units.KiB, 256 * units.KiB, units.MiB}, func(s *Settings) *units.Bytes { return &s.WriteSize }}
	if p.Version() == 1 {
		return []knob{read, write}
	}
	if p == transport.H3 {
		return []knob{read, write,
			{"QUIC stream window", []units.Bytes{0, 16 * units.MiB, 64 * units.MiB}, func(s *Settings) *units.Bytes { return &s.QUICStreamWindow }},
			{"QUIC connection window", []units.Bytes{0, 32 * units.MiB, 128 * units.MiB}, func(s *Settings) *units.Bytes { return &s.QUICConnWindow }},
		}
	}
	return []knob{read,
		{"frame size", []units.Bytes{16 * units.KiB, 256 * units.KiB, units.MiB, 4 * units.MiB}, func(s *Settings) *units.Bytes { return &s.MaxReadFrameSize }},
		{"stream window", []units.Bytes{0, 16 * units.MiB, 64 * units.MiB}, func(s *Settings) *units.Bytes { return &s.StreamWindow }},
		write,
	}
}

// clientConfig turns s into the client's knobs.
func (s Settings) clientConfig() config.Client {
	return config.Client{
		ReadSize: s.ReadSize,
		HTTP2:    config.HTTP2{MaxReadFrameSize: s.MaxReadFrameSize, MaxReceiveBufferPerStream: s.StreamWindow},
		QUIC:     config.QUIC{MaxStreamReceiveWindow: s.QUICStreamWindow, MaxConnectionReceiveWindow: s.QUICConnWindow},
	}
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

// search tunes p, then measures h1, the default and the best side by side,
// all before shareEnd. Each candidate is measured back to back with the
// current best. The search stops while the pair and the final 6
// measurements still fit, each as long as one over its transport has taken
// so far.
func (b *bench) search(ctx context.Context, p transport.Protocol, shareEnd time.Time) (Result, error) {
	res := Result{Protocol: p.String(), Default: defaults(p)}
	best := res.Default
	for pass := 0; pass < 3; pass++ {
		improved := false
		for _, k := range knobs(p) {
			for _, v := range k.values {
				if time.Until(shareEnd) < b.reserve(p) || ctx.Err() != nil {
					goto final
				}
				cand := best
				if *k.get(&cand) == v {
					continue
				}
				*k.get(&cand) = v
				// Paired with a fresh measurement of the best, so that drift
				// on a shared machine hits both; a candidate must win clearly.
				rate, _, err := b.measure(ctx, p, cand)
				if errors.Is(err, errCutOff) {
					goto final
				} else if err != nil {
					return res, err
				}
				bestRate, _, err := b.measure(ctx, p, best)
				if errors.Is(err, errCutOff) {
					goto final
				} else if err != nil {
					return res, err
				}
				res.Trials += 2
				if rate > bestRate*1.05 {
					best, improved = cand, true
				}
			}
		}
		if !improved {
			break
		}
	}
final:
	// Final: h1, default and best interleaved, finalRounds times (at
	// least one); means of the rounds, and the best's gain paired by
	// round.
	var h1s, defs, bests []float64
	var defRep transfer.Result
	for i := 0; i < finalRounds && ctx.Err() == nil; i++ {
		h1, _, err := b.measure(ctx, transport.H1, Settings{ReadSize: 256 * units.KiB, WriteSize: 256 * units.KiB})
		if errors.Is(err, errCutOff) {
			break
		} else if err != nil {
			return res, err
		}
		d, dr, err := b.measure(ctx, p, res.Default)
		if errors.Is(err, errCutOff) {
			break
		} else if err != nil {
			return res, err
		}
		bb, _, err := b.measure(ctx, p, best)
		if errors.Is(err, errCutOff) {
			break
		} else if err != nil {
			return res, err
		}
		h1s, defs, bests, defRep = append(h1s, h1), append(defs, d), append(bests, bb), dr
	}
	if len(h1s) == 0 {
		// A final figure of 0 would read as "infinitely slower than h1".
		return res, fmt.Errorf("tune: %s: the budget ran out before the final measurements of h1, the default and the best (a measurement took %v on average; raise the budget): %w",
			p, b.perMeasure(p).Round(time.Millisecond), errCutOff)
	}
	if res.Trials == 0 {
		// Nothing was searched: "best" would be the starting point.
		return res, fmt.Errorf("tune: %s: no trial fit in the budget (a measurement took %v on average; raise the budget): %w",
			p, b.perMeasure(p).Round(time.Millisecond), errCutOff)
	}
	res.Best = best
	res.H1BytesPerSecond, res.DefaultBytesPerSecond, res.BestBytesPerSecond = mean(h1s), mean(defs), mean(bests)
	res.Gain, res.GainLow, res.GainHigh, res.Pairs = pairedGain(defs, bests)
	res.conclude(p, defRep, b.opts.Link)
	return res, nil
}

// conclude fills res's ratios, diagnosis and code from its final means,
// keeping the defaults when the best found measured no better.
func (res *Result) conclude(p transport.Protocol, defRep transfer.Result, link *Link) {
	if res.Pairs < 2 || res.GainLow <= 1 || res.Best == res.Default {
		// Never offer what did not measure better than the defaults
		// beyond the final rounds' noise, nor the defaults themselves
		// (the same settings measured twice differ by noise alone).
		res.Best, res.BestBytesPerSecond, res.DefaultsBest = res.Default, res.DefaultBytesPerSecond, true
	}
	if res.H1BytesPerSecond > 0 {
		res.DefaultRatioToH1 = res.DefaultBytesPerSecond / res.H1BytesPerSecond
		res.RatioToH1 = res.BestBytesPerSecond / res.H1BytesPerSecond
	}
	res.Diagnosis = diagnose(p, defRep, *res, link)
	if !res.DefaultsBest {
		res.GoCode = goCode(p, res.Best)
	}
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// diagnose runs matrix's rules on the default configuration's measurement
// against h1's, across link when there is one.
func diagnose(p transport.Protocol, def transfer.Result, r Result, link *Link) []string {
	rep := func(x transfer.Result, rate float64) results.Repetition {
		m := results.Repetition{Value: rate, Seconds: x.Seconds, Bytes: x.Bytes, ClientBodyReads: x.Client.BodyReads,
			ClientReadSize: x.Client.ReadSize, ClientH2: x.Client.H2Frames, ClientQUIC: x.Client.QUIC}
		return m
	}
	// tune's servers run in this process, on loopback or across the
	// link, with its knobs.
	set := results.Settings{Target: "child", Server: &config.Server{}}
	if link != nil {
		set.Net = link.Net
	}
	res := &results.Results{Settings: set, Cells: []results.Cell{
		{Scenario: "download", Protocol: "h1", Metric: results.MetricBytesPerSecond, CPUUnit: "GB",
			Repetitions: []results.Repetition{{Value: r.H1BytesPerSecond}}},
		{Scenario: "download", Protocol: p.String(), Metric: results.MetricBytesPerSecond, CPUUnit: "GB",
			Repetitions: []results.Repetition{rep(def, r.DefaultBytesPerSecond)}},
	}}
	matrix.Summarise(res)
	var out []string
	for _, f := range res.Cells[1].Findings {
		out = append(out, f.String())
	}
	return out
}

// bench holds the in-process servers, one per server write size.
type bench struct {
	opts    Options
	servers map[units.Bytes]*server.Running
	// spent and measured time each transport's measure calls so far: their
	// mean is what the search reserves per measurement still to come.
	spent    map[transport.Protocol]time.Duration
	measured map[transport.Protocol]int
}

// perMeasure is the mean time a measure call over p has taken (Trial
// before the first): a trial plus a new connection, for h3 under CPU
// starvation several trials.
func (b *bench) perMeasure(p transport.Protocol) time.Duration {
	if b.measured[p] == 0 {
		return b.opts.Trial
	}
	return b.spent[p] / time.Duration(b.measured[p])
}

// finalRounds is how many times the final measurements interleave h1,
// the defaults and the best: enough rounds for the best's gain to have an
// interval (two give Student's t 12.7 times the spread).
const finalRounds = 4

// reserve is the time a candidate pair over p and the final measurements
// (finalRounds times h1, the default and the best) are expected to take.
func (b *bench) reserve(p transport.Protocol) time.Duration {
	return time.Duration(2+2*finalRounds)*b.perMeasure(p) + finalRounds*b.perMeasure(transport.H1)
}

func (b *bench) close() {
	for _, ts := range b.servers {
		ts.Close()
	}
}

func (b *bench) server(write units.Bytes) (*transport.Server, error) {
	if srv, ok := b.servers[write]; ok {
		return srv.Transport, nil
	}
	host, where := "127.0.0.1", transport.Network(nil)
	if l := b.opts.Link; l != nil {
		host, where = l.Host, l.Server
	}
	addr := net.JoinHostPort(host, "0")
	var srv *server.Running
	err := transport.InNetwork(where, func() (err error) {
		srv, err = server.Start(server.Config{
			Options:   server.Options{WriteSize: int(write)},
			Transport: transport.ServerOptions{Listen: addr, TLSListen: addr},
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("tune: start server: %w", err)
	}
	b.servers[write] = srv
	return srv.Transport, nil
}

// measure downloads over p with s for one trial and returns the rate in
// bytes per second.
func (b *bench) measure(ctx context.Context, p transport.Protocol, s Settings) (float64, transfer.Result, error) {
	if b.opts.Progress != nil {
		b.opts.Progress(p.String(), s)
	}
	began := time.Now()
	defer func() { b.spent[p] += time.Since(began); b.measured[p]++ }()
	ts, err := b.server(s.WriteSize)
	if err != nil {
		return 0, transfer.Result{}, err
	}
	client := transport.ClientOptions{Protocol: p, Config: s.clientConfig(), RootCAs: transport.CertPool(ts.Cert())}
	if b.opts.Link != nil {
		client.Network = b.opts.Link.Client
	}
	var res transfer.Result
	// A trial shorter than the handshake (h3 under -race, a loaded
	// machine) moves nothing: give it up to 16 times as long.
	for trial := b.opts.Trial; ; trial *= 4 {
		res, err = transfer.Run(ctx, transfer.Plan{
			URL:       ts.URL(p) + "/bytes/1t",
			Transfers: 1,
			Client:    client,
			Timeout:   trial,
		})
		if err != nil {
			return 0, res, err
		}
		if res.Bytes > 0 || ctx.Err() != nil || trial >= 16*b.opts.Trial {
			break
		}
	}
	if res.Bytes == 0 {
		// Nothing moved: a failure, not a slow configuration.
		if ctx.Err() != nil {
			return 0, res, fmt.Errorf("tune: %s download: %w", p, errCutOff)
		}
		return 0, res, fmt.Errorf("tune: %s download moved nothing in %v: %s", p, 16*b.opts.Trial, res.FirstError)
	}
	return float64(res.Bytes) / res.Seconds, res, nil
}
