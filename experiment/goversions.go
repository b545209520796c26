package experiment

import (
	"context"
	"slices"
	"time"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/buildinfo"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/goversions"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// VersionsOptions are Go as shipped measured across Go toolchains
// (Versions, `httpvs run --go`): a server and a client built by each
// toolchain, on loopback (no link, no target, no knobs: each
// toolchain's own program is Go as shipped). Zero fields are the
// defaults below; QuickVersions is `run --go --quick`.
type VersionsOptions struct {
	// Versions are the toolchains: "installed" (the go command on PATH)
	// or a release ("go1.27.4"), fetched once through the module proxy;
	// zero: "installed" alone.
	Versions []string
	// Protocols are the transports; zero: h1 and h2c (h3 is not
	// measured across versions).
	Protocols []transport.Protocol
	// Scenarios are scenario names; zero: download and
	// small-sequential, the only ones measured.
	Scenarios []string
	// Rounds every cell gets (zero: 8; at least 2, the fewest an
	// interval needs), and the most a cell gets while its ratio is wider
	// than ±10% (zero: Rounds when that is set, else 40).
	Rounds, MaxRounds int
	// Budget bounds, from the first round's start, the time within which
	// added rounds end; zero: 100 s; negative: none, MaxRounds alone
	// bounds them.
	Budget time.Duration
	// Duration is each round's measured time; zero: 250 ms. Warmup
	// is small-sequential's unmeasured time before its first round on
	// each toolchain and transport; zero: Duration.
	Duration, Warmup time.Duration
	// Size is each download's body; zero: sized per toolchain to take
	// Duration.
	Size units.Bytes
	// CacheDir holds the built binaries, one directory per toolchain;
	// empty: the user's cache directory.
	CacheDir string
	// Progress hears what is done next, in a few words; nil: nobody.
	Progress func(what string)
}

// QuickVersions is `httpvs run --go --quick`: 2 rounds of
// 100 ms a cell across versions.
func QuickVersions(versions ...string) VersionsOptions {
	return VersionsOptions{Versions: versions, Rounds: defaults.QuickGoRounds, MaxRounds: defaults.QuickGoRounds, Duration: defaults.QuickDuration, Warmup: defaults.QuickWarmup}
}

// noGoBudget stands for no budget (a negative Budget): added rounds are
// then bounded by MaxRounds alone.
const noGoBudget = 24 * time.Hour

// Versions measures Go as shipped across o.Versions' toolchains and
// returns a run's results: GoVersions holds the cells, Settings the
// options as filled. An interrupt (ctx done) keeps what was measured and
// marks the results partial; errors are those of setting it up (options
// out of range, a toolchain that cannot be fetched or built).
func Versions(ctx context.Context, o VersionsOptions) (*results.Results, error) {
	if err := notInChild(); err != nil {
		return nil, err
	}
	g, err := o.goversions().WithDefaults()
	if err != nil {
		return nil, &OptionsError{err}
	}
	res := &results.Results{SchemaVersion: results.SchemaVersion, Started: time.Now(), Env: buildinfo.CurrentEnv()}
	gv, err := goversions.Run(ctx, g)
	res.Finished = time.Now()
	if gv == nil {
		return nil, &OptionsError{err}
	}
	if err != nil {
		res.Partial, res.PartialReason = true, "interrupted: "+err.Error()
	}
	res.GoVersions = gv
	res.Settings = goSettings(g, gv)
	return res, nil
}

// goversions is o as package goversions takes it.
func (o VersionsOptions) goversions() goversions.Options {
	g := goversions.Options{Versions: o.Versions, Protocols: o.Protocols, Scenarios: o.Scenarios, Size: o.Size,
		Rounds: o.Rounds, MaxRounds: o.MaxRounds, Budget: o.Budget, Duration: o.Duration, Warmup: o.Warmup,
		CacheDir: o.CacheDir, Progress: o.Progress}
	if g.Rounds != 0 {
		g.Rounds = max(g.Rounds, defaults.QuickGoRounds) // an interval needs two
		if g.MaxRounds == 0 {
			g.MaxRounds = g.Rounds // fixed rounds, as the matrix's
		}
	}
	if g.Budget < 0 {
		g.Budget = noGoBudget
	}
	return g
}

// goSettings records o (with its defaults) as a run's settings.
func goSettings(o goversions.Options, gv *results.GoVersions) results.Settings {
	s := results.Settings{Target: "child", Engine: "std", Repeat: o.Rounds, MaxRepeat: o.MaxRounds,
		BudgetSeconds: o.Budget.Seconds(), DurationSeconds: o.Duration.Seconds(), WarmupSeconds: o.Warmup.Seconds(), SizeBytes: int64(o.Size)}
	if o.MaxRounds > o.Rounds {
		s.Rounds = analysis.RoundsUntilSettled
		s.Sequential = &results.Sequential{Rule: analysis.SequentialRule, Alpha: analysis.SequentialAlpha, First: o.Rounds, Last: o.MaxRounds}
	}
	rounds := map[string]int{}
	for _, c := range gv.Cells {
		if !slices.Contains(s.Protocols, c.Protocol) {
			s.Protocols = append(s.Protocols, c.Protocol)
		}
		if !slices.Contains(s.Scenarios, c.Scenario) {
			s.Scenarios = append(s.Scenarios, c.Scenario)
		}
		rounds[c.Scenario] = max(rounds[c.Scenario], len(c.Repetitions))
		s.Baseline = c.Baseline
	}
	for _, n := range rounds {
		s.ExtraRounds += max(n-s.Repeat, 0)
	}
	return s
}
