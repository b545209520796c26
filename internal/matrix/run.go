package matrix

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/buildinfo"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/internal/servercpu"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// targetBase returns the base URL of t that serves p, or "".
func targetBase(t Target, p transport.Protocol) string {
	if p.TLS() {
		return t.TLS
	}
	return t.Plain
}

// Run measures every scenario over every transport. When ctx ends early it
// returns what was measured, with Partial set; its error is for a run that
// cannot start (bad options).
func Run(ctx context.Context, opts Options) (*results.Results, error) {
	return run(ctx, opts)
}

// run is Run with the runner's methods on its options.
func run(ctx context.Context, opts Options) (*results.Results, error) {
	if err := opts.fill(); err != nil {
		return nil, err
	}
	scenarios, err := opts.expand()
	if err != nil {
		return nil, err
	}
	r := &runner{opts: opts, start: time.Now(), rng: rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15))}
	r.res = &results.Results{
		SchemaVersion: results.SchemaVersion,
		Started:       r.start.UTC(),
		Env:           buildinfo.CurrentEnv(),
		Settings:      opts.settings(),
	}
	for _, sc := range scenarios {
		r.total += len(r.columns(sc)) * opts.repeat(sc)
	}
	if est, err := estimateRun(opts); err == nil {
		r.res.Settings.EstimatedSeconds = est.Time.Seconds()
	}
	stopStats, err := r.openStats()
	if err != nil {
		return nil, err
	}
	defer stopStats()
	var runs []*scenarioRun
	for i := 0; i < len(scenarios) && ctx.Err() == nil; i++ {
		group := []*scenarioRun{r.plan(ctx, scenarios[i])}
		if i+1 < len(scenarios) && tunedOf(scenarios[i+1], scenarios[i]) {
			i++
			group = append(group, r.plan(ctx, scenarios[i]))
			group[0].partner, group[1].partner = group[1], group[0]
		}
		r.firstRounds(ctx, group, scenarios[i+1-len(group):])
		runs = append(runs, group...)
	}
	r.moreRounds(ctx, runs)
	r.res.Crossover = r.crossover(ctx)
	for _, sr := range runs {
		sr.markCut(ctx)
		cells, aa := sr.finish()
		r.res.Cells = append(r.res.Cells, cells...)
		r.res.AA = append(r.res.AA, aa...)
	}
	analysis.SetRatios(r.res.Cells, r.res.Settings.BaselineProtocol())
	analysis.SetTunedGains(r.res.Cells)
	analysis.SetAA(r.res.AA, r.res.Cells, r.res.Settings.BaselineProtocol())
	r.attribute(ctx, runs, r.res.Settings.BaselineProtocol())
	r.browser(ctx)
	r.res.Settings.ServerCPU = r.proc.Summary()
	r.res.Finished = time.Now().UTC()
	if took := time.Since(r.start); r.opts.Budget > 0 && took > r.opts.Budget+overrunSlack {
		r.res.Settings.OverrunSeconds = (took - r.opts.Budget).Seconds()
	}
	if ctx.Err() != nil {
		r.res.Partial = true
		r.res.PartialReason = "interrupted: " + context.Cause(ctx).Error() // the signal, when one ended it
	}
	return r.res, nil
}

// runner is one Run's state.
type runner struct {
	opts        Options
	res         *results.Results
	start       time.Time
	rng         *rand.Rand    // the rounds' column order, from Options.Seed
	estDone     time.Duration // what the estimate said the scenarios done so far would take (pace.go)
	paced       []string      // the scenarios whose first stage firstStage cut, and to what, or kept past the budget
	cutFrom     int           // the rounds firstStage last cut from; 0 before any cut
	done, total int
	statsClient *transport.Client
	statsURL    string
	// unreachable holds the transports whose check could not reach the
	// target, with the reason (noteUnreachable).
	unreachable map[transport.Protocol]string
	proc        servercpu.Source // the server's counters, or its CPU from /proc when it serves none
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
	if spec(&sc).Client != nil {
		cfg = *spec(&sc).Client
	}
	return transport.ClientOptions{
		Protocol:   p,
		Config:     cfg,
		RootCAs:    r.opts.Target.RootCAs,
		Insecure:   r.opts.Target.Insecure,
		ServerName: r.opts.Target.ServerName,
		Network:    r.opts.Network,
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
		sr.cells[i] = results.Cell{Scenario: sc.Name, Protocol: col.name, Metric: sc.Metric, CPUUnit: "1000 requests", Knobs: scenariospec.Of(&sc).Knobs, FirstStage: r.opts.repeat(sc), LastLook: r.opts.lastLook(sc)}
		if transferKind(sc) {
			sr.cells[i].Metric, sr.cells[i].CPUUnit = results.MetricBytesPerSecond, "GB"
		}
		if ctx.Err() != nil {
			continue
		}
		if j := sr.twin(i); j >= 0 {
			// The A/A column is the baseline's cell again: the same size,
			// not one of its own probe's (which would differ).
			sr.sizes[i], sr.cells[i].Skipped, sr.cells[i].Failed = sr.sizes[j], sr.cells[j].Skipped, sr.cells[j].Failed
		} else {
			sr.sizes[i], sr.cells[i].Skipped, sr.cells[i].Failed = r.prepare(ctx, sc, col)
		}
		if sr.cells[i].Skipped != "" {
			r.total -= r.opts.repeat(sc)
		}
		if spec(&sc).Req != nil {
			sr.cells[i].ResponseBytes, sr.sizes[i] = int64(sr.sizes[i]), 0
			if j := sr.twin(i); j >= 0 {
				sr.cells[i].ResponseBytes = sr.cells[j].ResponseBytes
			}
		}
	}
	if spec(&sc).Req != nil {
		responsesDiffer(sr.cells)
	}
	return sr
}

// twin is the column the A/A column i measures again (the baseline's,
// before it); -1 when i is not the A/A column.
func (sr *scenarioRun) twin(i int) int {
	if !sr.cols[i].aa {
		return -1
	}
	for j := range i {
		if c := sr.cols[j]; !c.native && !c.aa && c.proto == sr.cols[i].proto {
			return j
		}
	}
	return -1
}

// warmShare is how much shorter a warm-up round's repetitions are than a
// round's: a quarter of the load's time or of the transfer's bytes runs
// both processes' code paths, heap and buffers up for a quarter of a
// round's time. bench/aa.sh prints how far the first measured round then
// sits from the rest.
const warmShare = 4

// measure measures sr's column i once; a warm-up round's repetition
// (warm) moves a warmShare of it.
func (r *runner) measure(ctx context.Context, sr *scenarioRun, i int, warm bool) results.Repetition {
	col := sr.cols[i]
	switch {
	case !scenariospec.Of(&sr.sc).Engine():
		return r.network(ctx, sr.sc, col)
	case userTransfer(sr.sc):
		return r.requestTransfer(ctx, sr.sc, col.proto, warm)
	case scenariospec.Transfer(sr.sc.Metric) && warm:
		return r.transfer(ctx, sr.sc, col.proto, max(sr.sizes[i]/warmShare, units.Bytes(spec(&sr.sc).Streams)))
	case scenariospec.Transfer(sr.sc.Metric):
		return r.transfer(ctx, sr.sc, col.proto, sr.sizes[i])
	case warm:
		return r.loadOnce(ctx, sr.sc, col, r.firstTry(sr.sc)/warmShare)
	default:
		return r.load(ctx, sr.sc, col)
	}
}

// NativeColumn is the column of gRPC scenarios served by grpc-go's own
// server and transport (cleartext HTTP/2 on Target.GRPC).
const NativeColumn = vocab.NativeColumn

// column is one cell's place in a scenario: a transport or, in gRPC
// scenarios, also grpc-go's native binding; or the baseline again, as the
// scenario's A/A column.
type column struct {
	name   string
	proto  transport.Protocol // the transport (H2C for the native binding)
	native bool
	aa     bool // the baseline measured a second time (analysis.AAColumn)
}

// columns returns sc's columns: the transports asked for, for gRPC
// scenarios the native binding after them, and the A/A column when
// Options.AA names sc.
func (r *runner) columns(sc Scenario) []column {
	var cols []column
	for _, p := range r.opts.Protocols {
		cols = append(cols, column{name: p.String(), proto: p})
	}
	if scenariospec.Of(&sc).RPC {
		cols = append(cols, column{name: NativeColumn, proto: transport.H2C, native: true})
	}
	if base, ok := r.opts.aaBaseline(sc.Name); ok {
		cols = append(cols, column{name: analysis.AAColumn(base.String()), proto: base, aa: true})
	}
	return cols
}

func (r *runner) report(sc Scenario, col string, rep int, warm bool) {
	if r.opts.Progress == nil {
		return
	}
	pr := Progress{Scenario: sc.Name, Protocol: col, Repetition: rep, Warmup: warm, Done: r.done, Total: r.total, Elapsed: time.Since(r.start)}
	if r.done > 0 {
		pr.Remaining = time.Duration(float64(pr.Elapsed) / float64(r.done) * float64(r.total-r.done))
	}
	r.opts.Progress(pr)
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
	serverCPU(m, key, before, after, note, n)
	env := r.res.Env
	serverCores, known := analysis.ServerFigure(*m, m.ServerCores)
	m.Bottleneck = analysis.BottleneckOf(m.ClientCores, serverCores, known, env.Cores, env.GOMAXPROCS)
}

// serverCPU fills m's server figures from the server's snapshots before
// and after the repetition: its counters, or its process's CPU from
// /proc (snapshots without Protocols, which leave m.Server null and
// note why: the counters are not served).
func serverCPU(m *results.Repetition, key string, before, after *stats.ServerStats, note string, n float64) {
	switch {
	case before == nil || after == nil:
		m.ServerNote = note
	case (before.Protocols == nil) != (after.Protocols == nil):
		m.ServerNote = "server figures unknown: the repetition read the server's counters at one end and its process in /proc at the other"
	case after.Protocols == nil:
		m.ServerNote = note
		d := after.Sub(*before)
		serverFigures(m, d.Process.CPUSeconds(), d.Seconds, n)
	default:
		d, err := after.Delta(*before)
		if err != nil {
			m.ServerNote = err.Error()
			return
		}
		m.Server = &d
		serverFigures(m, d.Process.CPUSeconds(), d.Seconds, n)
		m.ServerUnreliable = crossCheck(m, key)
	}
}

// serverFigures sets m's server CPU, cores and CPU per unit from the
// server's CPU seconds over its window of seconds; n is the count of
// units the repetition moved.
func serverFigures(m *results.Repetition, cpu, seconds, n float64) {
	m.ServerCPUSeconds = &cpu
	if seconds <= 0 {
		return
	}
	cores := cpu / seconds
	m.ServerCores = &cores
	if n > 0 {
		// The server's window is bounded by two reads of its figures,
		// which a loaded server answers late: its rate over the
		// client's window.
		per := cores * m.Seconds / n
		m.ServerCPUPerUnit = &per
	}
}
