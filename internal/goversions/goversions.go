// Package goversions measures scenarios across Go releases: for each
// toolchain asked for, it builds one small program of its own (embedded
// source, child/) with that toolchain, fetched by the go command through
// the module proxy (GOTOOLCHAIN), runs it twice on loopback, as a server
// and as a client, and measures each scenario over each transport with
// Go's HTTP stacks as that release ships them. Rounds measure every
// toolchain and transport one after another, so that each cell's ratio to
// h1 (built by the same toolchain) and each change between toolchains is
// paired by round, as matrix pairs its cells.
//
// Only the scenarios whose code is the same in every release are measured
// (download and small-sequential); the others, and h3 (quic-go, not in
// Go's standard library), are named as not measured across versions.
package goversions

import (
	"context"
	"strings"
	"time"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/fielderr"
	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// Defaults used when Options fields are zero.
const (
	// DefaultRounds is the rounds every cell gets; rounds are added to a
	// scenario, up to DefaultMaxRounds and within DefaultBudget, while one
	// of its ratios or changes is known only wider than ±10%.
	DefaultRounds    = 8
	DefaultMaxRounds = 40
	DefaultBudget    = 100 * time.Second
	// DefaultDuration is each round's measured time: small-sequential's
	// window, and the time a download is sized to take.
	DefaultDuration = 250 * time.Millisecond
	// DefaultRequestTimeout bounds each request the client makes.
	DefaultRequestTimeout = time.Minute
)

// Scenario names measured across versions.
const (
	Download        = "download"         // one GET of a big body, read with io.Copy(io.Discard, ...): bytes per second
	SmallSequential = "small-sequential" // GET /small (2 bytes), one at a time: requests per second
)

// metrics are the scenarios measured across versions, with their metric.
var metrics = map[string]string{Download: results.MetricBytesPerSecond, SmallSequential: results.MetricRequestsPerSecond}

// Options say what to measure. The zero value measures download and
// small-sequential over h1 and h2c with the go command on PATH (Installed).
type Options struct {
	// Versions are the toolchains, each Installed or a name from
	// ParseVersion ("go1.24.13"); zero: Installed alone.
	Versions []string
	// Protocols are the transports; zero: h1 and h2c. h3 is not measured
	// across versions. Ratios are to analysis.BaselineOf the ones measured.
	Protocols []transport.Protocol
	// Scenarios are scenario names; zero: Download and SmallSequential.
	// Other names are listed in GoVersions.NotMeasured.
	Scenarios []string
	// Rounds is the rounds every cell gets; zero: DefaultRounds.
	Rounds int
	// MaxRounds is the most rounds a scenario gets; zero: DefaultMaxRounds.
	// Below Rounds it is Rounds: no rounds are added.
	MaxRounds int
	// Budget bounds, from the first round's start, the time within which
	// added rounds must end; zero: DefaultBudget.
	Budget time.Duration
	// Duration is each round's measured time; zero: DefaultDuration.
	Duration time.Duration
	// Warmup is small-sequential's unmeasured time before its first round
	// on each toolchain and transport; zero: Duration.
	Warmup time.Duration
	// Size is each download's body; zero: sized per toolchain and
	// transport, from an unmeasured first download, to take Duration.
	Size units.Bytes
	// CacheDir holds the built binaries, one directory per toolchain;
	// empty: DefaultCacheDir(). They stay for later runs.
	CacheDir string
	// BuildTimeout bounds fetching and building per toolchain; zero:
	// DefaultBuildTimeout.
	BuildTimeout time.Duration
	// RequestTimeout bounds each request; zero: DefaultRequestTimeout.
	RequestTimeout time.Duration
	// Progress, if set, is told what is done next, in a few words.
	Progress func(what string)
}

// WithDefaults returns o with its zero fields set to their defaults, and
// checks it as Run does.
func (o Options) WithDefaults() (Options, error) {
	if len(o.Versions) == 0 {
		o.Versions = []string{Installed}
	}
	if len(o.Protocols) == 0 {
		o.Protocols = []transport.Protocol{transport.H1, transport.H2C}
	}
	if len(o.Scenarios) == 0 {
		o.Scenarios = []string{Download, SmallSequential}
	}
	if o.Rounds == 0 {
		o.Rounds = DefaultRounds
	}
	if o.MaxRounds == 0 {
		o.MaxRounds = DefaultMaxRounds
	}
	o.MaxRounds = max(o.MaxRounds, o.Rounds)
	if o.Budget == 0 {
		o.Budget = DefaultBudget
	}
	if o.Duration == 0 {
		o.Duration = DefaultDuration
	}
	if o.Warmup == 0 {
		o.Warmup = o.Duration
	}
	if o.BuildTimeout == 0 {
		o.BuildTimeout = DefaultBuildTimeout
	}
	if o.RequestTimeout == 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if o.CacheDir == "" {
		dir, err := DefaultCacheDir()
		if err != nil {
			return o, err
		}
		o.CacheDir = dir
	}
	return o, o.validate()
}

// validate checks populated options; errors are *config.FieldError
// naming the field, or *VersionError.
func (o Options) validate() error {
	for _, v := range o.Versions {
		if v == Installed {
			continue
		}
		if got, err := ParseVersion(v); err != nil {
			return err
		} else if got != v {
			return &VersionError{Value: v, Reason: "want it as ParseVersion returns it, " + got}
		}
	}
	switch {
	case o.Rounds < 1 || o.Rounds > 100:
		return fielderr.New("Rounds", o.Rounds, "1 to 100")
	case o.MaxRounds > 100:
		return fielderr.New("MaxRounds", o.MaxRounds, "Rounds to 100")
	case o.Duration < 10*time.Millisecond || o.Duration > time.Hour:
		return fielderr.New("Duration", o.Duration, "10ms to 1h")
	case o.Warmup < 0 || o.Budget < 0 || o.BuildTimeout < 0 || o.RequestTimeout < 0:
		return fielderr.New("Warmup", o.Warmup, "no negative times (Warmup, Budget, BuildTimeout, RequestTimeout)")
	case o.Size < 0:
		return fielderr.New("Size", o.Size, "a positive size, or zero to size downloads by Duration")
	}
	scenarios, protocols, _ := o.measured()
	switch {
	case len(protocols) == 0:
		return fielderr.New("Protocols", strings.Join(protoname.Names(o.Protocols), ","), "a transport besides h3: h3 is not measured across Go versions (HTTP/3 is quic-go's, not in Go's standard library)")
	case len(scenarios) == 0:
		return fielderr.New("Scenarios", strings.Join(o.Scenarios, ","), "%s or %s: they alone are measured across Go versions", Download, SmallSequential)
	}
	return nil
}

// measured returns the scenarios and transports of o that are measured
// across versions, and a line for each that is not.
func (o Options) measured() (scenarios []string, protocols []transport.Protocol, not []string) {
	for _, s := range o.Scenarios {
		if _, ok := metrics[s]; ok {
			scenarios = append(scenarios, s)
		} else {
			not = append(not, s+": not measured across versions (download and small-sequential are)")
		}
	}
	for _, p := range o.Protocols {
		if p == transport.H3 {
			not = append(not, "h3: not measured across versions (HTTP/3 is quic-go's, not in Go's standard library)")
			continue
		}
		protocols = append(protocols, p)
	}
	return scenarios, protocols, not
}

// Run builds the program with each toolchain (or finds it in the cache),
// starts a server and a client built by each, measures the scenarios in
// interleaved rounds and returns the cells, their ratios and the changes
// between toolchains. A toolchain that cannot be fetched, built or started
// is not an error: its GoToolchain.Error says why, in one line, and the
// others are measured. Errors are for options it cannot run (typed:
// *VersionError, *config.FieldError, which is also what options with
// nothing measured across versions get).
// Every child has ended and every temporary directory is removed when Run
// returns; the binaries stay in the cache.
func Run(ctx context.Context, o Options) (*results.GoVersions, error) {
	o, err := o.WithDefaults()
	if err != nil {
		return nil, err
	}
	scenarios, protocols, not := o.measured() // WithDefaults refused options with none
	out := &results.GoVersions{NotMeasured: not}
	r := &runner{o: o, out: out, scenarios: scenarios, protocols: protocols}
	r.baseline, _ = transport.Parse(analysis.BaselineOf(protoname.Names(protocols)))
	r.prepare(ctx)
	defer r.stop()
	if ctx.Err() == nil {
		r.measure(ctx)
	}
	r.finish()
	return out, ctx.Err()
}
