package experiment

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/matrix"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// The presets' rounds: what `httpvs run` gives each cell.
const (
	// DefaultRepeat is the first stage of a default run's rounds: every
	// cell gets them (after a warm-up round), and their spread plans the
	// rounds a wider cell gets past them (Stein's two-stage procedure).
	// Six, not plan.DefaultRepeat's eight: eight and the warm-up round
	// filled the minute (an estimated 59 s) and left no time to give the
	// noisy cells the rounds their spread asks for.
	DefaultRepeat = 6
	// DefaultMaxRepeat and DefaultBudget let a default run add rounds to
	// its widest cells and still end within a minute.
	DefaultMaxRepeat = 16
	DefaultBudget    = 58 * time.Second
	// QuickDuration and QuickWarmup are Quick's one short round per cell.
	QuickDuration = 100 * time.Millisecond
	QuickWarmup   = 25 * time.Millisecond
	// QuickGoRounds is Quick's rounds across Go versions: two, the
	// fewest an interval needs; a Matrix.Repeat below it is raised to it.
	QuickGoRounds = 2
	// LinkRepeat is the rounds every cell gets across an emulated link,
	// where a round costs dozens of round trips; noisy cells (losses) get
	// more, up to MaxRepeat, within LinkBudgetShare of the first rounds'
	// estimated time on top of them: the time told before the cells
	// start (Options.OnPlan) is then met within a fifth.
	LinkRepeat      = 3
	LinkBudgetShare = 0.15
)

// Options are an experiment: what `httpvs run` measures, as a library
// call. The zero value measures Go as shipped (results.GoDefault) on every
// transport and the default scenarios, against a child `httpvs serve` on
// loopback, plan.DefaultRepeat rounds a cell; Default is `httpvs run`'s
// own, Quick its --quick, AcrossLink its --net.
type Options struct {
	// Matrix is what to measure and how: transports (empty: all),
	// scenarios (empty: plan.Scenarios, or plan.NetDefault across a
	// link), rounds, durations, the client's knobs, the load engine. Run
	// sets its Target, Network, link fields, Budget and Profile.
	// Matrix.Knobs is the knob set Run applies to Matrix.Client: a zero
	// one means results.GoDefault.
	Matrix plan.Options
	// NoTuned leaves out the tuned client's rows ("download:tuned") that
	// a Go-as-shipped run on loopback adds, which say what the tuned
	// client (results.Tuned) reaches.
	NoTuned bool
	// Target is an external server to measure instead of a child server;
	// zero: Run starts one.
	Target plan.Target
	// Executable is the httpvs binary Run starts as the child server
	// (`httpvs serve --child`); "" means this program, which must then be
	// httpvs or act as it when ChildEnv is set (a test's TestMain).
	Executable string
	// Server is the child server's knobs (zero: Go's and quic-go's, with
	// config.DefaultWriteSize writes), the server's part of Matrix.Knobs
	// applied over them; the results record them as the child read them.
	// An external Target's are its own, and the knob set's server part is
	// then left out.
	Server config.Server
	// ServerArgs are further `httpvs serve` flags for the child (--page
	// DIR, say); its knobs are Server's.
	ServerArgs []string
	// Link is the emulated link between the client and the child server;
	// nil: loopback. Linux only, with root or in a user namespace.
	Link *LinkSpec
	// Links are several links to measure the experiment across, one
	// after another, each a run of its own (Sweep, `httpvs run --net A
	// --net B`); Run takes one, Link.
	Links []LinkSpec
	// OnLink hears, in a Sweep, that link i (from 0) of Links starts;
	// nil: nobody.
	OnLink func(i int, link LinkSpec)
	// OnLinkDone hears, in a Sweep, link i's results as soon as they are
	// measured; an error it returns ends the sweep with that error. nil:
	// nobody (Sweep returns them all at its end).
	OnLinkDone func(i int, res *results.Results) error
	// Go, when its Versions are set, measures Go as shipped across those
	// toolchains instead of the matrix (`httpvs run --go`), on loopback;
	// the results' GoVersions hold the cells.
	Go GoOptions
	// Peers are the reference peers measured beside Go (reference.Run),
	// on loopback only.
	Peers []plan.Peer
	// ReferenceRounds bounds the peers' rounds (each a process start per
	// transport); zero: min(Matrix.Repeat, 5).
	ReferenceRounds int
	// ProfileDir, when set, is where the client's and the child's
	// profiles go, taken in rounds of their own after the measured ones
	// (plan.Options.Profile), and read into each cell's Attribution.
	ProfileDir string
	// Budget bounds, from Began, the start of added rounds (past
	// Matrix.Repeat, up to Matrix.MaxRepeat); zero: across a link, the
	// first rounds' estimated time and LinkBudgetShare of it again, on
	// loopback none, across Go versions GoBudget (from the first round's
	// start). Negative: none.
	Budget time.Duration
	// Began is when the experiment, and its budget, started; zero: when
	// Run was called.
	Began time.Time
	// OnPlan hears, before the cells start, what the experiment will
	// measure and its expected cost; nil: nobody.
	OnPlan func(Plan)
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
	// measured, one core a side where Go as shipped has them all: download
	// h2c/h1 as shipped read 0.28-0.32x pinned against 0.24-0.27x unpinned
	// (a plain Go program in golang/go#47840's shape, unpinned: 0.22x),
	// and pairs of 100 ms transfers spread no less (bench/noise.sh). So
	// the zero value leaves both to the scheduler, as a Go program runs;
	// the results record a pinned run (Settings.Pin). Across a link Run
	// does not pin: the link's ferries run in this process, beside the
	// generator.
	Pin bool
	// ReferenceProgress hears which reference peer measurement is under
	// way; nil: nobody. Matrix.Progress hears of the cells.
	ReferenceProgress func(string)
}

// Plan is what an experiment will measure and what it costs, told before
// its cells start (Options.OnPlan).
type Plan struct {
	Estimate plan.Estimate
	Spent    time.Duration // since Began: the child server, the link and its calibration
	Budget   time.Duration // from Began, for added rounds; zero: none
	Link     *results.Net  // the calibrated link; nil on loopback
	LinkName string        // the link as asked for
	// Sizing says how the user's slow requests were measured otherwise
	// than asked (matrix.SizeRequests), a line each; empty when none was.
	Sizing []string
}

// Default is `httpvs run`: every transport and the default scenarios, Go
// as shipped with the tuned client's rows beside it, DefaultRepeat rounds
// a cell and up to DefaultMaxRepeat for cells whose first rounds' spread
// asks for more, within DefaultBudget, and an A/A column in download.
func Default() Options {
	var o Options
	o.Matrix.Repeat = DefaultRepeat
	o.Matrix.MaxRepeat = DefaultMaxRepeat
	o.Matrix.AA = []string{"download"}
	o.Budget = DefaultBudget
	return o
}

// Quick is `httpvs run --quick`: one QuickDuration round per cell, for
// CI; across Go versions (Options.Go) QuickGoRounds rounds of
// QuickDuration, the fewest an interval needs.
func Quick() Options {
	var o Options
	o.Matrix.Repeat = 1
	o.Matrix.Duration = QuickDuration
	o.Matrix.Warmup = QuickWarmup
	o.Matrix.WarmupRounds = -1 // one round in all: no time for another
	return o
}

// AcrossLink is `httpvs run --net`: the link's scenarios (plan.NetDefault),
// LinkRepeat rounds a cell sized by the link's round trip
// (matrix.LinkWindowRTTs), up to DefaultMaxRepeat for noisy cells within
// the estimate and LinkBudgetShare again.
func AcrossLink(link LinkSpec) Options {
	var o Options
	o.Link = &link
	o.Matrix.Repeat = LinkRepeat
	o.Matrix.MaxRepeat = DefaultMaxRepeat
	// No warm-up round: across a link every repetition already leaves out
	// its handshakes and slow start (transfers) or runs round trips of
	// warm-up (requests), and a round costs seconds.
	o.Matrix.WarmupRounds = -1
	return o
}

// fill sets what the zero Options leave to the experiment.
func (o *Options) fill() error {
	if o.Began.IsZero() {
		o.Began = time.Now()
	}
	if len(o.Matrix.Protocols) == 0 {
		o.Matrix.Protocols = append([]transport.Protocol(nil), transport.All...)
	}
	if len(o.Matrix.Scenarios) == 0 {
		o.Matrix.Scenarios = plan.Scenarios
		if o.Link != nil {
			o.Matrix.Scenarios = plan.NetDefault()
		}
	}
	if err := o.applyKnobs(); err != nil {
		return err
	}
	asShipped := o.Matrix.Knobs.Name == results.GoDefault.Name || strings.HasPrefix(o.Matrix.Knobs.Name, results.GoDefault.Name+", with ")
	if o.Matrix.Alongside == nil && !o.NoTuned && o.Link == nil && asShipped {
		// As shipped -> tuned in one run: the single-stream transfers again
		// with the tuned client (on a link, the window decides instead).
		tuned := results.Tuned
		o.Matrix.Alongside = &tuned
	}
	if o.ReferenceRounds == 0 {
		o.ReferenceRounds = min(max(o.Matrix.Repeat, 1), maxReferenceRounds)
	}
	if o.Warn == nil {
		o.Warn = func(error) {}
	}
	return o.checkMatrix()
}

// checkMatrix refuses Matrix's fields out of range (plan.Options.Validate,
// named within "Matrix") before anything starts: the link, the child. The
// matrix's target is the external one, or the child's, known only once it
// runs: a stand-in for the check.
func (o *Options) checkMatrix() error {
	m := o.Matrix
	m.Target = o.Target
	if m.Target.Plain == "" && m.Target.TLS == "" {
		m.Target.Plain = "http://127.0.0.1" // the child's, once it runs
	}
	return config.WithinField("Matrix", m.Validate())
}

// maxReferenceRounds bounds the peers' rounds: each is a process start
// per transport, and the figures they give are steadier than Go's.
const maxReferenceRounds = 5

// applyKnobs applies the knob set Matrix.Knobs (zero: results.GoDefault)
// once: to the client, the load engine and the child server's knobs
// (Server). An external target's knobs are its own: the set's server part
// is left out, and out of the knobs the results record. The engine's
// loops may hold their Ps: the server is always another process (a link's
// ferries, which run in this one, turn that off).
func (o *Options) applyKnobs() error {
	m := &o.Matrix
	if m.Knobs.Name == "" {
		m.Knobs = results.GoDefault
	}
	setup := matrix.Setup{Client: &m.Client, Engine: &m.Engine, Server: &o.Server}
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
	return config.WithinField("Server", o.Server.Validate())
}
