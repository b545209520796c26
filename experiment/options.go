package experiment

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/httpvs/httpvs/internal/knobs"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/browser"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/fielderr"
	"github.com/httpvs/httpvs/internal/matrix"
	"github.com/httpvs/httpvs/internal/requests"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// Options are an experiment on loopback or across one link (Run,
// Capacity): what `httpvs run` measures, as a library call. The zero
// value is `httpvs run`: Go as shipped (knobs.GoDefault) on every
// transport and the default scenarios, against the child server on
// loopback, with the rounds fillRounds describes (4 a cell, up to 16
// within 58 s); with Link set, `httpvs run --net`'s. Quick is its
// --quick.
type Options struct {
	Base
	// Target is an external server to measure instead of the child
	// server; zero: Run starts one, unless Requests name a server (an
	// absolute URL): then the one cleartext and the one TLS server they
	// name are the target, as vegeta sends each request to its own URL.
	// A request naming another server than the Target given is refused.
	Target plan.Target
	// Link is the emulated link between the client and the child server;
	// nil: loopback. Linux only, with root or in a user namespace.
	Link *LinkSpec
	// peersMissing are the peers asked for that are not installed
	// (resolvePeers).
	peersMissing []string
}

// SweepOptions are an experiment across several links, one after
// another (Sweep, `httpvs run --net A --net B`), each a run of its own
// against the child server.
type SweepOptions struct {
	Base
	// Links are the links, at least one.
	Links []LinkSpec
	// OnLink hears that link i (from 0) of Links starts; nil: nobody.
	OnLink func(i int, link LinkSpec)
	// OnLinkDone hears link i's results as soon as they are measured; an
	// error it returns ends the sweep with that error. nil: nobody (Sweep
	// returns them all at its end).
	OnLinkDone func(i int, res *results.Results) error
}

// Base is what every experiment of the matrix (Run, Sweep, Capacity)
// is made of: the matrix, the child server, the peers beside Go, the
// profiles, the budget and who hears of the run.
type Base struct {
	// Matrix is what to measure and how: transports (empty: all),
	// scenarios (empty: plan.Scenarios, or plan.NetDefault across a
	// link), rounds (zero Repeat: `httpvs run`'s, see Options),
	// durations, the client's knobs, the load engine. What Run sets up
	// for it (the server's addresses, the link, the budget left, the
	// profiler) is not an option: Target and Budget are the user's.
	// Matrix.Knobs is the knob set Run applies to Matrix.Client: a zero
	// one means knobs.GoDefault.
	Matrix plan.Options
	// Requests are the user's own requests, each measured as two
	// scenarios of its own (plan.RequestScenarios), sent to Options.Target
	// or the child server. Matrix.Scenarios empty means the default ones
	// and these after them, or these alone against an external target;
	// Matrix.Scenarios given lists what is measured, these included.
	Requests []results.Request
	// NoAA leaves out the A/A columns (Matrix.AA nil: the first scenario
	// of each kind of work, plan.AAEachKind) that a
	// run on loopback adds: the baseline measured twice, whose interval
	// is the run's noise floor.
	NoAA bool
	// NoTuned leaves out the tuned client's rows ("download:tuned") that
	// a Go-as-shipped run on loopback adds, which say what the tuned
	// client (knobs.Tuned) reaches.
	NoTuned bool
	// Executable is the program Run starts as the child server: an
	// httpvs binary, or any whose main calls ServeChild first; "" means
	// this program, which must then call ServeChild first in main.
	Executable string
	// Server is the child server's knobs (zero: Go's and quic-go's, with
	// 256 KiB writes), the server's part of Matrix.Knobs
	// applied over them; the results record them as the child read them.
	// An external Target's are its own, and the knob set's server part is
	// then left out. The child serves Matrix.Browser's Page, if any.
	Server config.Server
	// Peers name the reference peers measured beside Go, on loopback
	// only: servers (h2o, nginx, caddy, nghttpd) and clients (curl,
	// h2load, wrk, oha), or "auto" alone for every one installed. Those
	// not installed where the run is are left out, and named with how to
	// install them in Plan.PeersMissing and the results' PeersMissing.
	Peers []string
	// ReferenceRounds bounds the peers' rounds (each a process start per
	// transport); zero: min(Matrix.Repeat, 5).
	ReferenceRounds int
	// ProfileDir, when set, is where the client's and the child's
	// profiles go, taken in rounds of their own after the measured ones
	// (plan.Options.Profile), and read into each cell's Attribution.
	ProfileDir string
	// Budget bounds, from Began, the start of added rounds (past
	// Matrix.Repeat, up to Matrix.MaxRepeat); zero: on loopback 58 s,
	// across a link the first rounds' estimated time and 15% of it
	// again. Negative: none.
	Budget time.Duration
	// Began is when the experiment, and its budget, started; zero: when
	// Run was called.
	Began time.Time
	// OnCost hears, before the cells start, what the experiment will
	// measure and its expected cost; nil: nobody.
	OnCost func(Cost)
	// Warn hears of what does not stop the experiment but changes what
	// it can measure (quic-go's UDP buffer warning, a profile not taken);
	// nil: nobody. The results keep what matters of it.
	Warn func(error)
	// Pin, on loopback with a child server and two CPUs or more, pins
	// the generator and the child server each to its own half of this
	// process's CPUs for the run (sched_setaffinity, GOMAXPROCS to match;
	// this process's mask and GOMAXPROCS are restored after), when the
	// machine is quiet. Their goroutines then no longer trade places
	// across the same cores: whole default runs settled about twice the
	// cells within ±10% (bench/verdict.sh). But it changes what is
	// measured, one core a side where Go as shipped has them all (the
	// ratios it moves: bench/verdict.sh and bench/noise.sh records). So
	// the zero value leaves both to the scheduler, as a Go program runs;
	// the results record a pinned run (Settings.Pin). Across a link Run
	// does not pin: the link's ferries run in this process, beside the
	// generator.
	Pin bool
	// ReferenceProgress hears which reference peer measurement is under
	// way; nil: nobody. Matrix.Progress hears of the cells.
	ReferenceProgress func(string)
	// wire is what Run sets up for the matrix: the server's addresses, the
	// link, the budget left, the profiler.
	wire matrix.Wiring
}

// Cost is what an experiment will measure and what it costs, told before
// its cells start (Options.OnCost).
type Cost struct {
	Estimate plan.Estimate
	Spent    time.Duration // since Began: the child server, the link and its calibration
	Budget   time.Duration // from Began, for added rounds; zero: none
	Link     *results.Net  // the calibrated link; nil on loopback
	LinkName string        // the link as asked for
	// Sizing says how the user's slow requests were measured otherwise
	// than asked (the plan's sizing), a line each; empty when none was.
	Sizing []string
	// PeersMissing are the reference peers asked for (Peers) that are
	// not installed, each with how to install it: "h2o (apt install h2o)".
	PeersMissing []string
}

// Quick is `httpvs run --quick`: one 100 ms round per cell, no
// A/A column, for CI.
func Quick() Options {
	var o Options
	o.Matrix.Repeat = 1
	o.Matrix.Duration = defaults.QuickDuration
	o.Matrix.Warmup = defaults.QuickWarmup
	o.Matrix.WarmupRounds = -1 // one round in all: no time for another
	o.NoAA = true
	return o
}

// CI is `httpvs run --ci`: CIRounds short rounds of CIDuration in every
// cell, so that httpvs compare's test can gate one CI run against
// another. No budget: every cell gets its CIRounds however slow the
// machine, since a run paced to a budget on a slower runner would cut
// its first rounds where its baseline's did not, and a gate of unlike
// pairs tests the slower side with fewer degrees of freedom (an
// explicit Budget still paces it).
func CI() Options {
	o := Quick()
	o.Matrix.Repeat = defaults.CIRounds // MaxRepeat zero: Repeat, none added
	o.Matrix.Duration = defaults.CIDuration
	o.Budget = -1
	return o
}

// fillRounds sets the rounds the zero Options leave to the experiment:
// `httpvs run`'s. On loopback 4 rounds a cell, up to 16 within 58 s by
// the sequential rule, and an A/A column in the first scenario of each
// kind of work (plan.AAEachKind); across a link 3 rounds sized by its
// round trip, no warm-up round, planned for ±10% up to 16 within the
// estimate and 15% of it again.
func (o *Options) fillRounds() {
	m := &o.Matrix
	if m.Repeat == 0 {
		m.Repeat = defaults.RunRepeat
		if o.Link != nil {
			m.Repeat = defaults.LinkRepeat
		}
		if m.MaxRepeat == 0 {
			m.MaxRepeat = defaults.RunMaxRepeat
		}
	}
	if o.Link != nil {
		// Across a link every repetition already leaves out its
		// handshakes and slow start (transfers) or runs round trips of
		// warm-up (requests), and a round costs seconds.
		if m.WarmupRounds == 0 {
			m.WarmupRounds = -1
		}
		// Planned for precision, not by the sequential rule: a link's
		// budget gives few rounds past the first three, and the
		// sequential interval's first look is 2.3 times as wide as a
		// fixed one there (1% spent, Student's t with two degrees of
		// freedom).
		if m.Precision == 0 {
			m.Precision = analysis.StableHalfWidth
		}
		return
	}
	if o.Budget == 0 {
		o.Budget = defaults.RunBudget
	}
	if m.Duration == 0 {
		m.Duration = defaults.RunDuration
	}
	if m.AA == nil && !o.NoAA {
		m.AA = []string{plan.AAEachKind}
	}
}

// fill sets what the zero Options leave to the experiment, and refuses
// what does not go together.
func (o *Options) fill() error {
	if o.Warn == nil {
		o.Warn = func(error) {}
	}
	if err := o.fillTarget(); err != nil {
		return err
	}
	o.fillRounds()
	if o.Began.IsZero() {
		o.Began = time.Now()
	}
	if err := o.fillProtocols(); err != nil {
		return err
	}
	if len(o.Matrix.Scenarios) == 0 {
		o.Matrix.Scenarios = o.defaultScenarios()
	}
	o.findBrowser()
	if err := o.applyKnobs(); err != nil {
		return err
	}
	asShipped := o.Matrix.Knobs.Name == knobs.GoDefault.Name || strings.HasPrefix(o.Matrix.Knobs.Name, knobs.GoDefault.Name+", with ")
	if o.Matrix.Alongside == nil && !o.NoTuned && o.Link == nil && asShipped {
		// As shipped -> tuned in one run: the single-stream transfers again
		// with the tuned client (on a link, the window decides instead).
		tuned := knobs.Tuned
		o.Matrix.Alongside = &tuned
	}
	if err := o.resolvePeers(); err != nil {
		return err
	}
	if o.ReferenceRounds == 0 {
		o.ReferenceRounds = min(max(o.Matrix.Repeat, 1), maxReferenceRounds)
	}
	return o.checkMatrix()
}

// fillTarget settles the target: Target, or the servers Requests name
// (requests.ResolveTarget), which an emulated link does not lead to.
func (o *Options) fillTarget() error {
	// A base URL's paths are appended to it: "http://host:port/" is
	// "http://host:port".
	o.Target.Plain, o.Target.TLS = strings.TrimSuffix(o.Target.Plain, "/"), strings.TrimSuffix(o.Target.TLS, "/")
	var err error
	if o.Target, err = requests.ResolveTarget(o.Requests, o.Target); err != nil {
		return err
	}
	if o.Link != nil && (o.Target.Plain != "" || o.Target.TLS != "") {
		return errors.New("an emulated link leads to the child server; it does not apply to an external target")
	}
	return nil
}

// defaultScenarios are what an empty Matrix.Scenarios means: page-load
// alone for the browser (Matrix.Browser), whose loads are held against
// its model; the user's requests alone against an external target; else
// the default matrix (across a link plan.NetDefault) and the requests.
func (o *Options) defaultScenarios() []plan.Scenario {
	mine := plan.RequestScenarios(o.Requests)
	switch {
	case o.Matrix.Browser != nil:
		pageLoad, _ := plan.ParseScenarios("page-load")
		return pageLoad
	case len(mine) > 0 && (o.Target.Plain != "" || o.Target.TLS != ""):
		return mine
	case o.Link != nil:
		return append(plan.NetDefault(), mine...)
	}
	return append(slices.Clone(plan.Scenarios), mine...)
}

// findBrowser leaves the browser out (Warn hears a *browser.NotFoundError)
// when Matrix.Browser names no executable and none is installed: the run
// measures without it.
func (o *Options) findBrowser() {
	bo := o.Matrix.Browser
	if bo == nil || bo.Path != "" {
		return
	}
	if _, err := browser.Find(""); err != nil {
		o.Warn(err)
		o.Matrix.Browser = nil
	}
}

// fillProtocols sets the transports zero Matrix.Protocols mean: all of
// them, or those an external target serves (h1-tls, h2 and h3 need its
// TLS base URL, h1 and h2c its cleartext one). A transport asked for
// that the target cannot serve is refused, naming the URL it needs.
func (o *Options) fillProtocols() error {
	t, m := o.Target, &o.Matrix
	external := t.Plain != "" || t.TLS != ""
	serves := func(p transport.Protocol) bool {
		return !external || (p.TLS() && t.TLS != "") || (!p.TLS() && t.Plain != "")
	}
	if len(m.Protocols) == 0 {
		for _, p := range transport.All {
			if serves(p) {
				m.Protocols = append(m.Protocols, p)
			}
		}
		return nil
	}
	for _, p := range m.Protocols {
		switch {
		case serves(p):
		case p.TLS():
			return fielderr.New("Target.TLS", "none", "a TLS base URL https://host:port: %s needs it (Target.Plain is cleartext: h1, h2c)", p)
		default:
			return fielderr.New("Target.Plain", "none", "a cleartext base URL http://host:port: %s needs it (Target.TLS serves h1-tls, h2, h3)", p)
		}
	}
	return nil
}

// checkMatrix refuses Matrix's fields out of range (plan.Options.Validate,
// named within "Matrix") before anything starts: the link, the child.
func (o *Options) checkMatrix() error {
	return fielderr.Within("Matrix", o.Matrix.Validate())
}

// maxReferenceRounds bounds the peers' rounds: each is a process start
// per transport, and the figures they give are steadier than Go's.
const maxReferenceRounds = 5

// applyKnobs applies the knob set Matrix.Knobs (zero: knobs.GoDefault)
// once: to the client, the load engine and the child server's knobs
// (Server). An external target's knobs are its own: the set's server part
// is left out, and out of the knobs the results record. The engine's
// loops may hold their Ps: the server is always another process (a link's
// ferries, which run in this one, turn that off).
func (o *Options) applyKnobs() error {
	m := &o.Matrix
	if m.Knobs.Name == "" {
		m.Knobs = knobs.GoDefault
	}
	setup := knobs.Setup{Client: &m.Client, Engine: &m.Engine, Server: &o.Server}
	if o.Target.Plain != "" || o.Target.TLS != "" {
		setup.Server = nil
		m.Knobs.Knobs = slices.DeleteFunc(slices.Clone(m.Knobs.Knobs), func(k results.Knob) bool { return strings.HasPrefix(k.Field, "Server.") })
	}
	for _, k := range m.Knobs.Knobs {
		if err := setup.Apply(k); err != nil {
			// Not a *config.FieldError: the value is the set's, not a field's.
			return fmt.Errorf("knob set %s: %s=%s: %v", m.Knobs.Name, k.Field, k.Value, err)
		}
	}
	m.Engine = m.Engine.WithHoldP(true)
	return fielderr.Within("Server", o.Server.Validate())
}

// engine is the matrix as the engine takes it: the user's choices and
// what Run set up.
func (b *Base) engine() matrix.Options { return matrix.Options{Options: b.Matrix, Wiring: b.wire} }

// setEngine keeps what the engine returned (a target's check, the
// requests' sizing, the budget's fit).
func (b *Base) setEngine(m matrix.Options) { b.Matrix, b.wire = m.Options, m.Wiring }
