package experiment

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/goversions"
	"github.com/httpvs/httpvs/results"
)

// GoOptions are the Go toolchains an experiment measures Go as shipped
// across (`httpvs run --go`), instead of the matrix: a server and a
// client built by each toolchain, on loopback (package goversions). What
// each toolchain measures is Options.Matrix's, as for the matrix:
// Protocols (zero: h1 and h2c; h3 is not measured across versions),
// Scenarios (zero: download and small-sequential, the only ones
// measured), Size (zero: sized per toolchain to take Duration), Repeat
// (zero: GoRounds; at least QuickGoRounds, the fewest an interval
// needs), MaxRepeat (zero: Repeat when that is set, else GoMaxRounds),
// Duration (zero: GoDuration) and Warmup (small-sequential's unmeasured
// time before its first round on each toolchain and transport; zero:
// Duration), within Options.Budget (zero: GoBudget; negative: none,
// MaxRepeat alone bounds the rounds). Options' other fields (peers,
// profiles, the child server's and the client's knobs) do not apply:
// each toolchain's own program is Go as shipped, and a link or a target
// is refused.
type GoOptions struct {
	// Versions are the toolchains: goversions.Installed (the go command
	// on PATH) or a release as goversions.ParseVersion returns it
	// ("go1.27.4"), fetched once through the module proxy. Empty: the
	// experiment measures the matrix, not Go versions.
	Versions []string
	// CacheDir holds the built binaries, one directory per toolchain;
	// empty: goversions.DefaultCacheDir().
	CacheDir string
	// Progress hears what is done next, in a few words; nil: nobody.
	Progress func(what string)
}

// The defaults across Go versions (GoOptions), for zero Options fields.
const (
	GoRounds    = goversions.DefaultRounds    // Matrix.Repeat
	GoMaxRounds = goversions.DefaultMaxRounds // Matrix.MaxRepeat
	GoBudget    = goversions.DefaultBudget    // Options.Budget
	GoDuration  = goversions.DefaultDuration  // Matrix.Duration
)

// noGoBudget stands for no budget (a negative GoOptions.Budget): added
// rounds are then bounded by MaxRounds alone.
const noGoBudget = 24 * time.Hour

// goVersions is Run for o.Go: the scenarios across Go toolchains, as a
// run's results (GoVersions, and Settings as the options were filled).
// An interrupt keeps what was measured and marks the results partial.
func (o *Options) goVersions(ctx context.Context) (*results.Results, error) {
	g, err := o.goversionsOptions().WithDefaults()
	if err != nil {
		return nil, &OptionsError{goField(err)}
	}
	res := &results.Results{SchemaVersion: results.SchemaVersion, Started: time.Now(), Env: results.CurrentEnv()}
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

// goversionsOptions are o's Go versions as package goversions takes them.
func (o *Options) goversionsOptions() goversions.Options {
	g := goversions.Options{
		Versions:  o.Go.Versions,
		Protocols: o.Matrix.Protocols,
		Size:      o.Matrix.Size,
		Rounds:    o.Matrix.Repeat,
		MaxRounds: o.Matrix.MaxRepeat,
		Budget:    o.Budget,
		Duration:  o.Matrix.Duration,
		Warmup:    o.Matrix.Warmup,
		CacheDir:  o.Go.CacheDir,
		Progress:  o.Go.Progress,
	}
	for _, sc := range o.Matrix.Scenarios {
		g.Scenarios = append(g.Scenarios, sc.Name)
	}
	if g.Rounds != 0 {
		g.Rounds = max(g.Rounds, QuickGoRounds) // an interval needs two
		if g.MaxRounds == 0 {
			g.MaxRounds = g.Rounds // fixed rounds, as the matrix's
		}
	}
	if g.Budget < 0 {
		g.Budget = noGoBudget
	}
	return g
}

// goFields are the Options fields goversions' own are, for its errors.
var goFields = map[string]string{"Rounds": "Matrix.Repeat", "MaxRounds": "Matrix.MaxRepeat", "Budget": "Budget",
	"Duration": "Matrix.Duration", "Warmup": "Matrix.Warmup", "Size": "Matrix.Size", "Protocols": "Matrix.Protocols", "Scenarios": "Matrix.Scenarios"}

// goField names, in err, the Options field a goversions field error is
// about, so that one map from fields to flags serves both kinds of run.
func goField(err error) error {
	var fe *config.FieldError
	if errors.As(err, &fe) {
		if name, ok := goFields[fe.Field]; ok {
			c := *fe
			c.Field = name
			return &c
		}
	}
	return err
}

// goSettings records o (with its defaults) as a run's settings.
func goSettings(o goversions.Options, gv *results.GoVersions) results.Settings {
	s := results.Settings{Target: "child", Engine: "std", Repeat: o.Rounds, MaxRepeat: o.MaxRounds,
		BudgetSeconds: o.Budget.Seconds(), DurationSeconds: o.Duration.Seconds(), WarmupSeconds: o.Warmup.Seconds(), SizeBytes: int64(o.Size)}
	if o.MaxRounds > o.Rounds {
		s.Rounds = results.RoundsUntilSettled
		s.Sequential = &results.Sequential{Rule: results.SequentialRule, Alpha: results.SequentialAlpha, First: o.Rounds, Last: o.MaxRounds}
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
