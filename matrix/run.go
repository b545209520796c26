package matrix

import (
	"context"
	"crypto/x509"
	"net/http"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transfer"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// Defaults used when Options fields are zero.
const (
	// DefaultRepeat and DefaultDuration: eight short rounds pin a ratio
	// closer than three long ones in the same time (Student's t is 2.4
	// for seven degrees of freedom, 4.3 for two), and drift on the machine
	// lands within a round (bench/verdict.sh).
	DefaultRepeat   = 8
	DefaultDuration = 100 * time.Millisecond
	// DefaultTimeout bounds each repetition.
	DefaultTimeout = 2 * time.Minute
)

// Target is the server a run measures.
type Target struct {
	// Plain is the base URL for h1 and h2c, e.g. http://127.0.0.1:8080;
	// empty skips them.
	Plain string
	// TLS is the base URL for h1-tls, h2 and h3 (UDP on the same port),
	// e.g. https://127.0.0.1:8443; empty skips them.
	TLS string
	// RootCAs are trusted for TLS; nil means the system's.
	RootCAs *x509.CertPool
	// Insecure skips certificate verification.
	Insecure bool
	// GRPC is host:port of a native gRPC server of the gRPC ServeHTTP post's Bookstore
	// (httpvs serve --grpc-listen); empty skips the grpc-native column.
	GRPC string
}

// base returns the base URL that serves p, or "".
func (t Target) base(p transport.Protocol) string {
	if p.TLS() {
		return t.TLS
	}
	return t.Plain
}

// Options describe a run.
type Options struct {
	Target    Target
	Protocols []transport.Protocol // transports, columns of the report
	Scenarios []Scenario           // workloads, in order
	// Repeat is the number of repetitions per cell; zero means DefaultRepeat.
	Repeat int
	// Duration is each load repetition's measured time and, when Size is
	// zero, the time each transfer repetition is sized to take; zero means
	// DefaultDuration.
	Duration time.Duration
	// Warmup runs before each load repetition; zero means Duration/4.
	Warmup time.Duration
	// MaxRepeat is the most rounds a cell may get: after Repeat rounds of
	// every scenario, rounds are added one at a time to the scenario with
	// the widest interval to h1 until every interval is within
	// StableHalfWidth, MaxRepeat is reached, or Budget is spent. Zero
	// means Repeat: no added rounds.
	MaxRepeat int
	// Budget bounds the added rounds: one starts only when it is expected
	// to end within Budget of the run's start. Zero means no bound but
	// MaxRepeat. The first Repeat rounds are never cut.
	Budget time.Duration
	// Size fixes each transfer cell's total body size (split across its
	// streams); zero sizes it per transport from a probe of Duration/2.
	Size units.Bytes
	// Client is the client's tuning, the same for every cell.
	Client config.Client
	// Knobs names the knob set Client (and the caller's server) started
	// from and the values it set; the results record it.
	Knobs results.KnobSet
	// Alongside, if set, is a second knob set whose client knobs measure
	// each single-stream transfer again, every transport, as a variant
	// scenario ("download:tuned", variant.go): Go as shipped beside the
	// best known settings in one run.
	Alongside *results.KnobSet
	// Engine is the load engine of the request scenarios (load.Std, the
	// zero value, or load.Fast); a transport it does not speak is measured
	// with load.Std (Engine.For). Let it hold Ps only when Target is
	// another process.
	Engine load.Engine
	// Timeout bounds each repetition; zero means DefaultTimeout.
	Timeout time.Duration
	// Header holds extra request headers sent with every request of the
	// transfer and request scenarios, probes included (a target that wants
	// credentials, say), but not with gRPC calls or the emulated link's
	// cold-start, page-load and head-of-line requests; the results record
	// their names, not their values.
	Header http.Header
	// Network is where every client socket of the run is made (an
	// emulated link's client namespace, for example); nil means the
	// process's own network.
	Network transport.Network
	// StatsNetwork, if set, is where the client that reads the server's
	// counters makes its socket instead of Network: an emulated link's
	// server namespace, so that reading them costs no round trips on the
	// link and is not counted in its counters.
	StatsNetwork transport.Network
	// LinkCounters, if set, returns the emulated link's counters since its
	// last call (netem.Link.ResetStats): each repetition records those of
	// its own span (Repetition.Link).
	LinkCounters func() (up, down netem.DirStats)
	// RTT is the round trip of the emulated link (its calibration); zero
	// without one. head-of-line lets its download run for a few round
	// trips before it measures.
	RTT time.Duration
	// Link is the emulated link the run crosses, as calibrated (its RTT
	// is RTT); nil on loopback. Across it rounds are sized by the link
	// (linkplan.go: a zero Duration or Warmup is LinkWindowRTTs or
	// LinkWarmupRTTs round trips, transfers are sized from its goodput and
	// their first part omitted) and every cell is held against the link's
	// bound (bounds.go). The results carry it as Settings.Net.
	Link *results.Net
	// Omit is how much of each transfer's start its rate leaves out, as
	// iperf3's --omit: zero means, across a link, its handshakes and slow
	// start (none on loopback); negative means none.
	Omit time.Duration
	// Progress, if set, is called before each measurement.
	Progress func(Progress)
	// Profile, if set, is called before a round of its own, after the
	// measured ones, of each transfer or load cell slower than its
	// baseline and of the baseline, and the function it returns after it,
	// which returns the CPU profiles the caller took over the round (the
	// client's and the server's). Run attributes each slower cell's extra
	// CPU from them (Cell.Attribution); no measured repetition is
	// profiled.
	Profile func(scenario, column string) (stop func() Profiles)
	// Browser, if set, loads the target's page in a real browser after
	// the cells, each transport's loads held against page-load's model
	// (Results.Browser).
	Browser *BrowserOptions
}

// Progress is where a run is.
type Progress struct {
	Scenario   string
	Protocol   string
	Repetition int           // 1-based
	Done       int           // measurements finished
	Total      int           // measurements in all (skipped cells excluded once known)
	Elapsed    time.Duration // since the run started
	Remaining  time.Duration // estimate from the pace so far; zero before the first measurement
}

func (o *Options) fill() error {
	o.fillLink()
	if o.Repeat == 0 {
		o.Repeat = DefaultRepeat
	}
	if o.MaxRepeat == 0 {
		o.MaxRepeat = o.Repeat
	}
	if o.Duration == 0 {
		o.Duration = DefaultDuration
	}
	if o.Warmup == 0 {
		o.Warmup = o.Duration / 4
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	return o.Validate()
}

// Validate reports the first field of o out of range as a
// *config.FieldError (the client's under "Client."); zero fields are
// accepted where fill gives them defaults.
func (o Options) Validate() error {
	switch {
	case o.Repeat < 0 || o.Repeat > 100:
		return config.Fieldf("Repeat", o.Repeat, "1 to 100")
	case o.MaxRepeat != 0 && (o.MaxRepeat < max(o.Repeat, 1) || o.MaxRepeat > 100):
		return config.Fieldf("MaxRepeat", o.MaxRepeat, "Repeat to 100, or 0 for Repeat")
	case o.Budget < 0:
		return config.Fieldf("Budget", o.Budget, "zero (no bound) or more")
	case o.Duration != 0 && (o.Duration < 10*time.Millisecond || o.Duration > time.Hour):
		return config.Fieldf("Duration", o.Duration, "10ms to 1h per repetition")
	case o.Warmup < 0:
		return config.Fieldf("Warmup", o.Warmup, "zero or more")
	case o.Omit > time.Hour:
		return config.Fieldf("Omit", o.Omit, "up to 1h, 0 for the link's own, or negative for none")
	case o.Size < 0:
		return config.Fieldf("Size", o.Size, "zero (sized by a probe) or more")
	case o.Timeout < 0:
		return config.Fieldf("Timeout", o.Timeout, "a positive duration, or 0 for the default")
	case len(o.Protocols) == 0:
		return config.Fieldf("Protocols", "none", "at least one transport")
	case len(o.Scenarios) == 0:
		return config.Fieldf("Scenarios", "none", "at least one scenario")
	case o.Target.Plain == "" && o.Target.TLS == "":
		return config.Fieldf("Target", "none", "a cleartext or a TLS base URL")
	}
	return config.WithinField("Client", o.Client.Validate())
}

// Run measures every scenario over every transport. When ctx ends early it
// returns what was measured, with Partial set; its error is for a run that
// cannot start (bad options).
func Run(ctx context.Context, opts Options) (*results.Results, error) {
	if err := opts.fill(); err != nil {
		return nil, err
	}
	scenarios, err := opts.expand()
	if err != nil {
		return nil, err
	}
	r := &runner{opts: opts, start: time.Now()}
	r.res = &results.Results{
		SchemaVersion: results.SchemaVersion,
		Started:       r.start.UTC(),
		Env:           results.CurrentEnv(),
		Settings:      opts.settings(),
	}
	for _, sc := range scenarios {
		r.total += len(r.columns(sc)) * opts.repeat(sc)
	}
	if est, err := EstimateRun(opts); err == nil {
		r.res.Settings.EstimatedSeconds = est.Time.Seconds()
	}
	stopStats, err := r.openStats()
	if err != nil {
		return nil, err
	}
	defer stopStats()
	var runs []*scenarioRun
	for _, sc := range scenarios {
		if ctx.Err() != nil {
			break
		}
		sr := r.plan(ctx, sc)
		for range opts.repeat(sc) {
			r.round(ctx, sr, nil)
		}
		runs = append(runs, sr)
	}
	r.moreRounds(ctx, runs)
	r.res.Crossover = r.crossover(ctx)
	for _, sr := range runs {
		r.res.Cells = append(r.res.Cells, sr.finish()...)
	}
	results.SetRatios(r.res.Cells, r.res.Settings.BaselineProtocol())
	r.attribute(ctx, runs, r.res.Settings.BaselineProtocol())
	r.browser(ctx)
	r.res.Finished = time.Now().UTC()
	if err := ctx.Err(); err != nil {
		r.res.Partial = true
		r.res.PartialReason = "interrupted: " + err.Error()
	}
	return r.res, nil
}

func (o Options) settings() results.Settings {
	s := results.Settings{
		Repeat:          o.Repeat,
		MaxRepeat:       o.MaxRepeat,
		BudgetSeconds:   o.Budget.Seconds(),
		DurationSeconds: o.Duration.Seconds(),
		WarmupSeconds:   o.Warmup.Seconds(),
		SizeBytes:       int64(o.Size),
		Engine:          o.Engine.String(),
		Knobs:           o.Knobs,
		Alongside:       o.Alongside,
		Client:          o.Client.Effective(),
		Target:          o.Target.Plain,
		TLSTarget:       o.Target.TLS,
		HeaderNames:     transport.HeaderNames(o.Header),
		Net:             o.Link,
	}
	for _, p := range o.Protocols {
		s.Protocols = append(s.Protocols, p.String())
	}
	s.Baseline = results.BaselineOf(s.Protocols)
	for _, sc := range o.Scenarios {
		s.Scenarios = append(s.Scenarios, sc.Name)
	}
	s.Requests = requestsOf(o.Scenarios)
	return s
}

// runner is one Run's state.
type runner struct {
	opts        Options
	res         *results.Results
	start       time.Time
	done, total int
	statsClient *transport.Client
	statsURL    string
	// unreachable holds the transports whose check could not reach the
	// target, with the reason (noteUnreachable).
	unreachable map[transport.Protocol]string
}

// openStats makes the client that reads the server's counters, over a
// connection of its own.
func (r *runner) openStats() (stop func(), err error) {
	p, base := transport.H1, r.opts.Target.Plain
	if base == "" {
		p, base = transport.H1TLS, r.opts.Target.TLS
	}
	r.statsURL = base + "/stats"
	opts := r.clientOptions(Scenario{}, p)
	if r.opts.StatsNetwork != nil {
		opts.Network = r.opts.StatsNetwork
	}
	r.statsClient, err = transport.NewClient(opts)
	if err != nil {
		return nil, err
	}
	return func() { r.statsClient.Close() }, nil
}

// clientOptions is the client of sc's cells over p: the run's, or a
// variant scenario's own configuration.
func (r *runner) clientOptions(sc Scenario, p transport.Protocol) transport.ClientOptions {
	cfg := r.opts.Client
	if sc.client != nil {
		cfg = *sc.client
	}
	return transport.ClientOptions{
		Protocol: p,
		Config:   cfg,
		RootCAs:  r.opts.Target.RootCAs,
		Insecure: r.opts.Target.Insecure,
		Network:  r.opts.Network,
	}
}

// scenario runs one scenario's cells, repetition by repetition, each
// repetition going over every transport in turn so that drift on a shared
// machine lands on all of them alike.
// plan prepares sc's cells: one per column, each checked and sized, or
// skipped with the reason.
func (r *runner) plan(ctx context.Context, sc Scenario) *scenarioRun {
	cols := r.columns(sc)
	sr := &scenarioRun{sc: sc, cols: cols, cells: make([]results.Cell, len(cols)), sizes: make([]units.Bytes, len(cols)), spent: make([]time.Duration, len(cols))}
	for i, col := range cols {
		sr.cells[i] = results.Cell{Scenario: sc.Name, Protocol: col.name, Metric: sc.Metric, CPUUnit: "1000 requests", Knobs: sc.knobs}
		if sc.Transfer() {
			sr.cells[i].CPUUnit = "GB"
		}
		if ctx.Err() != nil {
			continue
		}
		sr.sizes[i], sr.cells[i].Skipped, sr.cells[i].Failed = r.prepare(ctx, sc, col)
		if sr.cells[i].Skipped != "" {
			r.total -= r.opts.repeat(sc)
		}
		if sc.req != nil {
			sr.cells[i].ResponseBytes, sr.sizes[i] = int64(sr.sizes[i]), 0
		}
	}
	if sc.req != nil {
		responsesDiffer(sr.cells)
	}
	return sr
}

// round measures one round of sr: the columns in which (all when nil),
// one after another.
func (r *runner) round(ctx context.Context, sr *scenarioRun, which []bool) {
	sr.rounds++
	for i, col := range sr.cols {
		if sr.cells[i].Skipped != "" || ctx.Err() != nil || (which != nil && !which[i]) {
			continue
		}
		r.report(sr.sc, col.name, sr.rounds)
		if r.opts.LinkCounters != nil {
			r.opts.LinkCounters() // what came before is not this repetition's
		}
		began := time.Now()
		var m results.Repetition
		switch {
		case sr.sc.kind != kindEngine:
			m = r.network(ctx, sr.sc, col)
		case sr.sc.Transfer():
			m = r.transfer(ctx, sr.sc, col.proto, sr.sizes[i])
		default:
			m = r.load(ctx, sr.sc, col)
		}
		sr.spent[i] += time.Since(began)
		if r.opts.LinkCounters != nil {
			m.Link = newRepetitionLink(r.opts.LinkCounters())
		}
		m.Round = sr.rounds
		sr.cells[i].Repetitions = append(sr.cells[i].Repetitions, m)
		r.done++
	}
}

// NativeColumn is the column of gRPC scenarios served by grpc-go's own
// server and transport (cleartext HTTP/2 on Target.GRPC).
const NativeColumn = "grpc-native"

// column is one cell's place in a scenario: a transport or, in gRPC
// scenarios, also grpc-go's native binding.
type column struct {
	name   string
	proto  transport.Protocol // the transport (H2C for the native binding)
	native bool
}

// columns returns sc's columns: the transports asked for, and for gRPC
// scenarios the native binding after them.
func (r *runner) columns(sc Scenario) []column {
	var cols []column
	for _, p := range r.opts.Protocols {
		cols = append(cols, column{name: p.String(), proto: p})
	}
	if sc.rpc {
		cols = append(cols, column{name: NativeColumn, proto: transport.H2C, native: true})
	}
	return cols
}

func (r *runner) report(sc Scenario, col string, rep int) {
	if r.opts.Progress == nil {
		return
	}
	pr := Progress{Scenario: sc.Name, Protocol: col, Repetition: rep, Done: r.done, Total: r.total, Elapsed: time.Since(r.start)}
	if r.done > 0 {
		pr.Remaining = time.Duration(float64(pr.Elapsed) / float64(r.done) * float64(r.total-r.done))
	}
	r.opts.Progress(pr)
}

// serverStats reads the server's counters, giving up after limit; nil and a
// reason when they are unavailable.
func (r *runner) serverStats(ctx context.Context, limit time.Duration) (*stats.ServerStats, string) {
	return transfer.FetchServerStats(ctx, r.statsClient, r.statsURL, limit)
}

// cpu fills m's process figures from the client's over the repetition and
// the server's counters before and after; n is the count of CPU units (GB
// or thousands of requests) the repetition moved.
//
// key names the transport in the server's counters (its Protocols map),
// which cross-check the client's: see crossCheck.
func (r *runner) cpu(m *results.Repetition, key string, client stats.ProcessStats, before, after *stats.ServerStats, note string, n float64) {
	clientCPU := client.CPUSeconds()
	m.ClientCPUSeconds = clientCPU
	m.ClientGCCycles, m.ClientGoroutinesPeak = client.GCCycles, client.GoroutinesPeak
	if m.Seconds > 0 {
		m.ClientCores = clientCPU / m.Seconds
	}
	if n > 0 {
		m.ClientCPUPerUnit = m.ClientCPUSeconds / n
	}
	if before == nil || after == nil {
		m.ServerNote = note
	} else {
		d := after.Sub(*before)
		m.Server = &d
		cpu := d.Process.CPUSeconds()
		m.ServerCPUSeconds = &cpu
		if d.Seconds > 0 {
			cores := cpu / d.Seconds
			m.ServerCores = &cores
			if n > 0 {
				// The server's window is bounded by two /stats requests,
				// which a loaded server answers late: its rate over the
				// client's window.
				per := cores * m.Seconds / n
				m.ServerCPUPerUnit = &per
			}
		}
		m.ServerUnreliable = results.CrossCheck(m, key)
	}
	env := r.res.Env
	serverCores, known := m.ServerFigure(m.ServerCores)
	m.Bottleneck = results.BottleneckOf(m.ClientCores, serverCores, known, env.Cores, env.GOMAXPROCS)
}
