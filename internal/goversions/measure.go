package goversions

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// Download sizing: the unmeasured first download of each toolchain and
// transport moves probeSize; measured ones are sized from its rate to take
// Options.Duration, within minSize..maxSize.
const (
	probeSize = 32 * units.MiB
	minSize   = 1 * units.MiB
	maxSize   = 16 * units.GiB
)

// runner is one Run's state.
type runner struct {
	o          Options
	out        *results.GoVersions
	scenarios  []string
	protocols  []transport.Protocol
	baseline   transport.Protocol
	toolchains []*toolchainRun // the ones started, in the order listed
	cells      map[key]*results.Cell
	order      []key // cells in report order: scenario, toolchain, transport
	sizes      map[key]int64
}

// toolchainRun is one toolchain's server and client.
type toolchainRun struct {
	tc             *results.GoToolchain
	server, client *child
	stopped        bool // failed, or its children were stopped
}

// key names a cell: scenario, toolchain (its index in r.toolchains), transport.
type key struct {
	scenario string
	v        int
	p        transport.Protocol
}

// prepare builds the program with each toolchain and starts a server and
// a client of each that built.
func (r *runner) prepare(ctx context.Context) {
	r.cells, r.sizes = map[key]*results.Cell{}, map[key]int64{}
	r.out.Toolchains = make([]results.GoToolchain, len(r.o.Versions))
	for i, v := range r.o.Versions {
		tc := &r.out.Toolchains[i]
		tc.Asked = v
		if ctx.Err() != nil {
			tc.Error = "not started: " + ctx.Err().Error()
			continue
		}
		r.progress("building the program with %s (the go command fetches the toolchain once)", v)
		bctx, cancel := context.WithTimeout(ctx, r.o.BuildTimeout)
		bin, err := Build(bctx, v, r.o.CacheDir)
		cancel()
		if err != nil {
			if be, ok := err.(*BuildError); ok {
				tc.Error = be.Stage + ": " + be.Err.Error()
			} else {
				tc.Error = err.Error()
			}
			continue
		}
		tc.Toolchain, tc.Binary, tc.Cached, tc.BuildSeconds = bin.Toolchain, bin.Path, bin.Cached, bin.Took.Seconds()
		if t := r.start(ctx, tc); t != nil {
			r.toolchains = append(r.toolchains, t)
		}
	}
	for _, sc := range r.scenarios {
		for v := range r.toolchains {
			for _, p := range r.protocols {
				k := key{sc, v, p}
				r.cells[k] = &results.Cell{Scenario: sc, Protocol: p.String(), Metric: metrics[sc], Baseline: r.baseline.String(),
					FirstStage: r.o.Rounds, LastLook: r.o.MaxRounds}
				r.order = append(r.order, k)
			}
		}
	}
}

// start starts tc's server and client; nil, with tc.Error set, if either
// fails.
func (r *runner) start(ctx context.Context, tc *results.GoToolchain) *toolchainRun {
	cells := len(r.scenarios) * len(r.protocols) * len(r.o.Versions)
	perCell := r.o.Duration + r.o.Warmup + 2*time.Second
	life := time.Duration(r.o.MaxRounds+1)*perCell*time.Duration(cells) + r.o.Budget + 10*time.Minute
	srv, err := startChild(ctx, tc.Binary, "serve", life)
	if err != nil {
		tc.Error = "server: " + err.Error()
		return nil
	}
	cl, err := startChild(ctx, tc.Binary, "client", life)
	if err != nil {
		srv.stop()
		tc.Error = "client: " + err.Error()
		return nil
	}
	tc.BinaryGo, tc.H2C = cl.hello.Go, cl.hello.H2C
	if srv.hello.Go != cl.hello.Go {
		tc.BinaryGo = fmt.Sprintf("server %s, client %s", srv.hello.Go, cl.hello.Go)
	}
	return &toolchainRun{tc: tc, server: srv, client: cl}
}

// stop ends every child still running.
func (r *runner) stop() {
	for _, t := range r.toolchains {
		if !t.stopped {
			t.stopped = true
			t.client.stop()
			t.server.stop()
		}
	}
}

// fail stops t's children and records why in one line.
func (r *runner) fail(t *toolchainRun, why string) {
	if t.stopped {
		return
	}
	t.stopped = true
	t.client.stop()
	t.server.stop()
	t.tc.Error = why
}

func (r *runner) progress(format string, args ...any) {
	if r.o.Progress != nil {
		r.o.Progress(fmt.Sprintf(format, args...))
	}
}

// measure warms every cell up, then runs rounds: Options.Rounds for every
// scenario, then more for a scenario not yet settled while the budget
// and MaxRounds allow. Every interval is results.Sequential's, looks
// after rounds Rounds to MaxRounds, so stopping once settled keeps 95%.
func (r *runner) measure(ctx context.Context) {
	for _, sc := range r.scenarios {
		r.warm(ctx, sc)
	}
	start := time.Now()
	took := map[string]time.Duration{}
	for n := 1; n <= r.o.MaxRounds && ctx.Err() == nil; n++ {
		ran := false
		for _, sc := range r.scenarios {
			if n > r.o.Rounds && (r.settled(sc) || time.Since(start)+took[sc] > r.o.Budget) {
				continue
			}
			t := time.Now()
			r.round(ctx, sc, n)
			took[sc], ran = time.Since(t), true
		}
		if !ran {
			return
		}
	}
}

// warm runs each cell of sc once, unmeasured: connections are opened and,
// for downloads, the size is set from the rate seen. A cell whose warm-up
// fails is skipped, with its first error.
func (r *runner) warm(ctx context.Context, sc string) {
	for v, t := range r.toolchains {
		for _, p := range r.protocols {
			if t.stopped || ctx.Err() != nil {
				return
			}
			k := key{sc, v, p}
			r.progress("warming up %s over %s, %s", sc, p, t.tc.Toolchain)
			rd := r.roundFor(t, k)
			rd.Duration, rd.Warmup = r.o.Warmup, 0
			if sc == Download {
				rd.Size = int64(probeSize)
				if r.o.Size > 0 {
					rd.Size = min(int64(r.o.Size), rd.Size)
				}
			}
			res, err := t.client.do(ctx, rd, r.doTimeout())
			switch {
			case err != nil:
				r.fail(t, fmt.Sprintf("warming up %s over %s: %v", sc, p, err))
			case res.Errors > 0:
				r.cells[k].Skipped = "warm-up failed: " + res.FirstError
			case sc == Download:
				r.sizes[k] = sizeFor(res, r.o)
			}
		}
	}
}

// sizeFor is a download's size: Options.Size, or what the warm-up's rate
// moves in Options.Duration, in whole MiB within minSize..maxSize.
func sizeFor(warm result, o Options) int64 {
	if o.Size > 0 {
		return int64(o.Size)
	}
	size := int64(minSize)
	if warm.Seconds > 0 {
		size = int64(float64(warm.Bytes) / warm.Seconds * o.Duration.Seconds())
	}
	size = size / int64(units.MiB) * int64(units.MiB)
	return min(max(size, int64(minSize)), int64(maxSize))
}

// doTimeout bounds one round as the parent waits for it.
func (r *runner) doTimeout() time.Duration {
	return r.o.RequestTimeout + r.o.Duration + r.o.Warmup + 10*time.Second
}

// roundFor is cell k's round on t.
func (r *runner) roundFor(t *toolchainRun, k key) round {
	rd := round{Scenario: k.scenario, Protocol: k.p.String(), URL: t.server.hello.Plain, Size: r.sizes[k], Duration: r.o.Duration, Timeout: r.o.RequestTimeout}
	if k.p.TLS() {
		rd.URL, rd.CertPEM = t.server.hello.TLS, t.server.hello.CertPEM
	}
	return rd
}

// round measures every cell of sc once, as round n, in a fresh random
// order of toolchains and transports (randomized interleaving: what one
// cell leaves behind lands on each alike, and no toolchain always comes
// first).
func (r *runner) round(ctx context.Context, sc string, n int) {
	var order []key
	for v := range r.toolchains {
		for _, p := range r.protocols {
			order = append(order, key{sc, v, p})
		}
	}
	rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	for _, k := range order {
		t, p := r.toolchains[k.v], k.p
		c := r.cells[k]
		if t.stopped || c.Skipped != "" || ctx.Err() != nil {
			continue
		}
		r.progress("round %d: %s over %s, %s", n, sc, p, t.tc.Toolchain)
		res, err := t.client.do(ctx, r.roundFor(t, k), r.doTimeout())
		if err != nil {
			if ctx.Err() == nil {
				r.fail(t, fmt.Sprintf("stopped in round %d, %s over %s: %v", n, sc, p, err))
			}
			continue
		}
		rep := repetition(res, n, k)
		if sc == Download {
			rep.SizeBytes = r.sizes[k]
		}
		c.Repetitions = append(c.Repetitions, rep)
	}
}

// repetition turns a client's result into a matrix repetition.
func repetition(res result, n int, k key) results.Repetition {
	rep := results.Repetition{Round: n, Value: res.Value, Seconds: res.Seconds, Bytes: res.Bytes, Requests: res.Requests, Streams: 1, FirstError: res.FirstError}
	rep.Errors.Total, rep.Errors.Other = res.Errors, res.Errors
	switch res.Negotiated {
	case "HTTP/1.1":
		rep.Negotiated = transport.H1.String()
		if k.p.TLS() {
			rep.Negotiated = transport.H1TLS.String()
		}
	case "HTTP/2.0":
		rep.Negotiated = transport.H2C.String()
		if k.p.TLS() {
			rep.Negotiated = transport.H2.String()
		}
	}
	return rep
}
