package matrix

import (
	"slices"
	"time"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/fielderr"
	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/internal/redact"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// Options is the user's choices (plan.Options) and the run's wiring, with
// the methods the runner fills them and reads them through.
type Options struct {
	plan.Options
	Wiring
}

// Wiring is what the experiment that runs the matrix sets up for it: the
// server's addresses, the network its sockets are made in, the emulated
// link and its counters, the time left and the profiler. None of it is a
// user's choice; plan.Options holds those.
type Wiring struct {
	// Target is the server measured: the child server's addresses, or the
	// user's, resolved.
	Target Target
	// Budget bounds the added rounds: one starts only when it is expected
	// to end within Budget of the run's start. Zero means no bound but
	// MaxRepeat. The first Repeat rounds are never cut.
	Budget time.Duration
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
	// Profile, if set, is called before a round of its own, after the
	// measured ones, of each transfer or load cell slower than its
	// baseline and of the baseline, and the function it returns after it,
	// which returns the CPU profiles the caller took over the round (the
	// client's and the server's). Run attributes each slower cell's extra
	// CPU from them (Cell.Attribution); no measured repetition is
	// profiled.
	Profile func(scenario, column string) (stop func() Profiles)
}

// The vocabulary of a run, from package plan.
type (
	Scenario       = plan.Scenario
	Target         = plan.Target
	Progress       = plan.Progress
	Profiles       = plan.Profiles
	Estimate       = plan.Estimate
	BrowserOptions = plan.BrowserOptions
)

// spec is how sc is measured.
func spec(sc *Scenario) *scenariospec.Spec { return scenariospec.Of(sc) }

// warmupRounds is the warm-up rounds each scenario runs.
func (o Options) warmupRounds() int {
	switch {
	case o.WarmupRounds < 0:
		return 0
	case o.WarmupRounds == 0:
		return defaults.WarmupRounds
	}
	return o.WarmupRounds
}

// lastLook is Cell.LastLook for sc's cells: MaxRepeat when rounds go to
// open verdicts past sc's first stage, 0 otherwise.
func (o Options) lastLook(sc Scenario) int {
	if o.Precision > 0 || o.MaxRepeat <= o.repeat(sc) {
		return 0
	}
	return o.MaxRepeat
}

// aaBaseline is the baseline transport when scenario gets an A/A column.
func (o Options) aaBaseline(scenario string) (transport.Protocol, bool) {
	named := slices.Contains(o.AA, scenario) || slices.Contains(o.AA, plan.AAAll)
	if !named && slices.Contains(o.AA, plan.AAEachKind) {
		// The first scenario of its kind, in the order they run.
		seen := map[string]bool{}
		for _, sc := range o.Scenarios {
			k := analysis.KindOf(sc.Name, sc.Metric)
			if !seen[k] && sc.Name == scenario {
				named = true
			}
			seen[k] = true
		}
	}
	if !named {
		return 0, false
	}
	p, err := transport.Parse(analysis.BaselineOf(protoname.Names(o.Protocols)))
	return p, err == nil
}

func (o *Options) fill() error {
	o.fillLink()
	if o.Seed == 0 {
		o.Seed = uint64(time.Now().UnixNano())
	}
	if o.Repeat == 0 {
		o.Repeat = defaults.MatrixRepeat
	}
	if o.MaxRepeat == 0 {
		o.MaxRepeat = o.Repeat
	}
	if o.Duration == 0 {
		o.Duration = defaults.MatrixDuration
	}
	if o.Warmup == 0 {
		o.Warmup = o.Duration / 4
	}
	if o.Timeout == 0 {
		o.Timeout = max(defaults.MatrixTimeout, 2*o.longestTransfer())
	}
	switch {
	case o.Target.Plain == "" && o.Target.TLS == "":
		return fielderr.New("Target", "none", "a cleartext or a TLS base URL")
	case o.Budget < 0:
		return fielderr.New("Budget", o.Budget, "zero (no bound) or more")
	}
	return o.Validate()
}

func (o Options) settings() results.Settings {
	s := results.Settings{
		Repeat:          o.Repeat,
		MaxRepeat:       o.MaxRepeat,
		BudgetSeconds:   o.Budget.Seconds(),
		LossEvents:      o.sizedLossEvents(),
		DurationSeconds: o.Duration.Seconds(),
		WarmupSeconds:   o.Warmup.Seconds(),
		SizeBytes:       int64(o.Size),
		Engine:          o.Engine.String(),
		Knobs:           o.Knobs,
		Alongside:       o.Alongside,
		Client:          o.Client.Effective(),
		Target:          o.Target.Plain,
		TLSTarget:       o.Target.TLS,
		ServerName:      o.Target.ServerName,
		HeaderNames:     redact.HeaderNames(o.Header),
		Net:             o.Link,
		Seed:            o.Seed,
		WarmupRounds:    o.warmupRounds(),
	}
	switch {
	case o.MaxRepeat <= o.Repeat:
		s.Rounds = analysis.RoundsBySpread // none added: one stage
	case o.Precision > 0:
		s.Rounds, s.Precision = analysis.RoundsBySpread, o.Precision
	default:
		s.Rounds = analysis.RoundsToOpen
		s.Sequential = &results.Sequential{Rule: analysis.SequentialRule, Alpha: analysis.SequentialAlpha, First: o.Repeat, Last: o.MaxRepeat}
	}
	if o.Profile != nil {
		s.ProfileSpanSeconds = o.profileSpan().Seconds()
	}
	for _, p := range o.Protocols {
		s.Protocols = append(s.Protocols, p.String())
	}
	s.Baseline = analysis.BaselineOf(s.Protocols)
	for _, sc := range o.Scenarios {
		s.Scenarios = append(s.Scenarios, sc.Name)
		if _, ok := o.aaBaseline(sc.Name); ok {
			s.AA = append(s.AA, sc.Name)
		}
	}
	s.Requests = requestsOf(o.Scenarios)
	return s
}
