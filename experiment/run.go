package experiment

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/childserver"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/internal/matrix"
	"github.com/httpvs/httpvs/internal/runfiles"
	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// Run runs the experiment o describes: it makes and calibrates the link,
// starts the child server (or points at o.Target), runs the matrix with
// its added rounds and profiles, measures the reference peers, and
// returns the results diagnosed. An interrupted run (ctx done) returns what it measured, marked Partial. Errors are those of setting it up:
// a link that cannot be made, a server that does not start, options out
// of range.
func Run(ctx context.Context, o Options) (*results.Results, error) {
	if err := notInChild(); err != nil {
		return nil, err
	}
	if err := o.fill(); err != nil {
		return nil, &OptionsError{err}
	}
	var link *emuLink
	if o.Link != nil {
		var err error
		if link, err = openLink(*o.Link); err != nil {
			return nil, err
		}
		defer link.Close() // after the child has stopped: deferred before it
	}
	pinned, unpin, unpinned := o.pinPlan(ctx, link)
	defer unpin()
	// A child that dies mid-run ends the run, with its death as the
	// cause: the matrix marks it partial and keeps no repetition the
	// death cut short.
	ctx, died := context.WithCancelCause(ctx)
	defer died(nil)
	server, stop, err := o.startServer(ctx, link, pinned, died)
	if err != nil {
		return nil, err
	}
	defer stop()
	if err := pinned.self(); err != nil {
		unpinned, pinned = err.Error(), nil
	}
	defer pinned.restore()
	m := &o.Matrix
	if link != nil {
		if err := link.Calibrate(ctx); err != nil {
			return nil, err
		}
		o.wire.RTT, o.wire.Link = link.RTT(), link.Desc
	}
	planned, empty, err := o.planRun(ctx, server == nil)
	if empty != nil || err != nil {
		return empty, err
	}
	st := setup{link: link, server: server, notRun: planned.NotRun, pinned: pinned, unpinned: unpinned, planned: planned}
	if st.udpNote = udpBuffers(m.Protocols); st.udpNote != "" {
		o.Warn(errors.New(st.udpNote))
	}
	return o.measure(ctx, st)
}

// setup is what Run made before the cells: the link, the child server's
// knobs (nil for an external target), quic-go's buffer note, what the
// target lacks, and the pinning (or why there is none).
type setup struct {
	link     *emuLink
	server   *config.Server
	udpNote  string
	notRun   []results.NotRun
	pinned   *pinning
	unpinned string
	planned  matrix.Planned
}

// measure runs the matrix o.Matrix, set up as st says, and adds what Run
// knows to its results.
func (o *Options) measure(ctx context.Context, st setup) (*results.Results, error) {
	if err := o.profile(); err != nil {
		return nil, err
	}
	o.cost(st.link, st.planned)
	res, err := matrix.Run(ctx, o.engine())
	if err != nil {
		return nil, &OptionsError{err}
	}
	o.settle(res, st.server, st.udpNote, st.link, st.notRun)
	res.Settings.Pin, res.Settings.Unpinned = st.pinned.result(), st.unpinned
	res.Sizing, res.PeersMissing = st.planned.Sizing, o.peersMissing
	// The run ended because the server died (or as it died, at the last
	// repetitions): say that, not only that the run was interrupted.
	if de := (*childserver.DiedError)(nil); errors.As(context.Cause(ctx), &de) {
		res.Partial, res.PartialReason = true, de.Error()
	}
	if len(o.Peers) > 0 && ctx.Err() == nil {
		if res.References, err = o.references(ctx, st.pinned); err != nil {
			return nil, err
		}
	}
	// With the settings added here (the server's knobs, the target): the
	// rules read them.
	analysis.Judge(res)
	return res, nil
}

// settle adds to res what the matrix does not know: the child server's
// knobs, quic-go's buffer note, the link, what the target lacked.
func (o *Options) settle(res *results.Results, server *config.Server, udpNote string, link *emuLink, notRun []results.NotRun) {
	res.NotRun = notRun
	res.Settings.Server = server
	res.Settings.UDPBuffers = udpNote
	res.Settings.Net = link.result()
	if o.Target.Plain == "" && o.Target.TLS == "" {
		res.Settings.Target = "child"
	}
	if o.ProfileDir != "" {
		res.Settings.ProfileDir = o.ProfileDir
		if abs, err := filepath.Abs(o.ProfileDir); err == nil {
			res.Settings.ProfileDir = abs
		}
	}
}

// checkTarget leaves out of o.Matrix what an external target lacks (the
// target's check of matrix.Plan) and returns it; when nothing is left, the results
// saying so (no scenario) or a *nothingToMeasureError (no transport).
func (o *Options) checkTarget(ctx context.Context, external bool) ([]results.NotRun, *results.Results, error) {
	if !external {
		return nil, nil, nil
	}
	planned, err := matrix.Plan(ctx, o.engine(), matrix.PlanOptions{External: true, TargetOnly: true})
	if err != nil {
		return nil, nil, err
	}
	checked, notRun := planned.Options, planned.NotRun
	o.setEngine(checked)
	switch {
	case len(checked.Protocols) == 0:
		return nil, nil, &nothingToMeasureError{NotRun: notRun}
	case len(checked.Scenarios) == 0: // what was asked is not there: said, not failed
		return nil, matrix.Unmeasured(checked, notRun), nil
	}
	return notRun, nil, nil
}

// udpBuffers is quic-go's socket buffer warning when h3 is among protos
// and it applies here; "" otherwise.
func udpBuffers(protos []transport.Protocol) string {
	for _, p := range protos {
		if p == transport.H3 {
			return dial.UDPBufferWarning()
		}
	}
	return ""
}

// startServer starts the child server (inside link's server namespace
// when there is one) or takes o.Target, and points o.Matrix at it. It
// returns the child's knobs (nil for an external target) and what stops
// the child; died hears of a child that exits before then. pinned, when
// set, gives the child its CPUs.
func (o *Options) startServer(ctx context.Context, link *emuLink, pinned *pinning, died func(error)) (*config.Server, func(), error) {
	m := &o.Matrix
	if o.Target.Plain != "" || o.Target.TLS != "" {
		if err := reachTarget(ctx, &o.Target, o.Warn); err != nil {
			return nil, nil, err
		}
		o.wire.Target = o.Target
		return nil, func() {}, nil
	}
	spec := childserver.Spec{Server: o.Server, Profiling: o.ProfileDir != "", Token: serverctl.ClientToken(), CPUs: pinned.serverCPUs()}
	if m.Browser != nil {
		spec.Page = m.Browser.Page
	}
	child, err := childserver.Start(ctx, o.Executable, link.server(), spec)
	if err != nil {
		return nil, nil, err
	}
	o.wire.Target = plan.Target{Plain: child.Ready.Plain, TLS: child.Ready.TLS, RootCAs: child.Roots, GRPC: child.Ready.GRPC}
	if link != nil {
		o.wire.Network = link.link.Client()
		o.wire.LinkCounters = link.take
		o.wire.StatsNetwork = link.server()
		// The link's ferries run in this process: loops must not hold
		// the Ps they need.
		m.Engine = m.Engine.WithHoldP(false)
	}
	srv := child.Ready.Server // what it serves with, as it read it
	unwatch := child.Watch(died)
	return &srv, func() { unwatch(); child.Stop() }, nil
}

// planRun makes the run's plan (matrix.Plan) and keeps it: an external
// target's check, the user's requests sized, the first rounds fitted to
// o.Budget on loopback, the loss events across a link. A target that
// lacks every scenario gives results saying so; one that lacks every
// transport, a *nothingToMeasureError.
func (o *Options) planRun(ctx context.Context, external bool) (matrix.Planned, *results.Results, error) {
	planned, err := matrix.Plan(ctx, o.engine(), matrix.PlanOptions{External: external, Budget: o.Budget, Began: o.Began})
	if err != nil {
		return planned, nil, &OptionsError{err}
	}
	o.setEngine(planned.Options)
	switch {
	case len(o.Matrix.Protocols) == 0:
		return planned, nil, &nothingToMeasureError{NotRun: planned.NotRun}
	case len(o.Matrix.Scenarios) == 0: // what was asked is not there: said, not failed
		return planned, matrix.Unmeasured(planned.Options, planned.NotRun), nil
	}
	return planned, nil, nil
}

// cost sets the run's budget, o.Budget or across a link the estimate and
// 15% of it again, and tells OnCost of both.
func (o *Options) cost(link *emuLink, planned matrix.Planned) {
	est := planned.Estimate
	budget := o.Budget
	if budget == 0 && link != nil {
		budget = time.Since(o.Began) + time.Duration((1+defaults.LinkBudgetShare)*float64(est.Time))
	}
	if o.OnCost != nil {
		p := Cost{Estimate: est, Spent: time.Since(o.Began), Budget: max(budget, 0), Sizing: append(slices.Clip(planned.Sizing), planned.Fitted...), PeersMissing: o.peersMissing}
		if link != nil {
			p.Link, p.LinkName = link.Desc, link.Name()
		}
		o.OnCost(p)
	}
	if budget > 0 {
		// The budget counts from the experiment's start: the child server
		// and the link came out of it.
		o.wire.Budget = max(budget-time.Since(o.Began), time.Nanosecond)
	}
}

// OptionsError is Run's error for options out of range or that do not go
// together, before anything was measured; Err says which (often a
// *config.FieldError naming the field).
type OptionsError struct{ Err error }

func (e *OptionsError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *OptionsError) Unwrap() error { return e.Err }

// nothingToMeasureError is Run's error when an external target speaks none
// of the transports asked for; NotRun says how each was refused.
type nothingToMeasureError struct{ NotRun []results.NotRun }

// Lacking is what the target lacks, each transport with its reason, for
// a command that words them its own way.
func (e *nothingToMeasureError) Lacking() []results.NotRun { return e.NotRun }

func (e *nothingToMeasureError) Error() string {
	parts := make([]string, len(e.NotRun))
	for i, n := range e.NotRun {
		parts[i] = n.String()
	}
	return "nothing to measure on this target: " + strings.Join(parts, "; ")
}

// profile sets m up to profile each cell into ProfileDir, if set. The
// child serves profiles; an external target only if it is httpvs serve
// --profiling (the profiler says so otherwise), and never one the token
// would reach in cleartext (an *OptionsError).
func (o *Options) profile() error {
	if o.ProfileDir == "" {
		return nil
	}
	prof, err := serverctl.NewProfiler(o.ProfileDir, o.wire.Target.Plain, o.wire.Network, o.Warn)
	var cleartext *serverctl.CleartextTokenError
	if errors.As(err, &cleartext) {
		return &OptionsError{err}
	}
	if err != nil {
		return err
	}
	o.wire.Profile = func(scenario, column string) func() plan.Profiles {
		stop := prof.Start(runfiles.ProfileName(scenario, column))
		return func() plan.Profiles { return plan.Profiles(stop()) }
	}
	return nil
}
