package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/goversions"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/transport"
)

// goFlagUsage is run's --go.
var goFlagUsage = "measure the scenarios with a server and a client built by each Go toolchain in `list` (installed: the go on PATH; 1.24.13 or go1.24.13: fetched once through the module proxy), Go as shipped in each, instead of the matrix; download and small-sequential, over h1 and h2c unless --protocols says otherwise; its own rounds unless --repeat, --max-repeat, --budget and --duration say otherwise: " + goRoundsText

// goRoundsText says --go's own defaults, which are not run's.
var goRoundsText = fmt.Sprintf("%d rounds, up to %d while a ratio is wider than ±10%%, within %v, %v each", goversions.DefaultRounds, goversions.DefaultMaxRounds, goversions.DefaultBudget, goversions.DefaultDuration)

// goFlags are the run flags that go with --go; the others measure
// httpvs's own client and server, or a link, and are refused beside it.
var goFlags = []string{"go", "protocols", "scenarios", "size", "duration", "warmup", "repeat", "max-repeat", "budget", "quick", "json", "format", "out", "no-files"}

// goVersions is `run --go LIST`: the scenarios across Go toolchains
// (experiment.Versions), printed and written as a run's results.
func (f *runFlags) goVersions(ctx context.Context, e *env, fs *flagset.Set) error {
	vo, err := f.versionsOptions(fs)
	if err != nil {
		return err
	}
	if err := checkOut(f.out, f.noFiles); err != nil {
		return err
	}
	prog := TerminalProgress(e.stderr)
	if prog != nil {
		vo.Progress = func(what string) { prog.Text("go versions: " + what) }
	}
	res, err := experiment.Versions(ctx, vo)
	prog.Clear()
	if err := f.runError(fs, err); err != nil {
		return err
	}
	return finishRun(e, f, res)
}

// versionsOptions turns the flags into the options across Go versions
// (the library's defaults, or QuickVersions), refusing in one line a bad
// --go and the flags that do not go with it.
func (f *runFlags) versionsOptions(fs *flagset.Set) (experiment.VersionsOptions, error) {
	var vo experiment.VersionsOptions
	versions, err := goversions.ParseVersions(f.goList)
	var ve *goversions.VersionError
	if errors.As(err, &ve) {
		return vo, usagef("--go %s: %s", ve.Value, ve.Reason)
	} else if err != nil {
		return vo, usagef("--go: %v", err)
	}
	set := fs.Given()
	for name := range set {
		if !slices.Contains(goFlags, name) {
			return vo, usagef("%s does not go with --go, which measures Go as shipped on loopback with a server and client of its own", fs.Typed(name))
		}
	}
	// The flags were parsed over the zero Options (parseRun): a field is
	// zero unless given, and zero is the library's default, or --quick's.
	m, q := f.xo.Matrix, experiment.VersionsOptions{}
	if f.quick {
		q = experiment.QuickVersions()
	}
	vo = experiment.VersionsOptions{Versions: versions, Size: m.Size, Rounds: cmp.Or(m.Repeat, q.Rounds), MaxRounds: m.MaxRepeat,
		Duration: cmp.Or(m.Duration, q.Duration), Warmup: q.Warmup, Budget: cmp.Or(f.xo.Budget, q.Budget)}
	if set["warmup"] { // 0: the default, Duration, as without --quick
		vo.Warmup = m.Warmup
	}
	if set["protocols"] {
		if vo.Protocols, err = transport.ParseList(f.protocols); err != nil {
			return vo, usagef("--protocols: %v", err)
		}
	}
	if set["scenarios"] {
		scs, err := plan.ParseScenarios(f.scenarios)
		if err != nil {
			return vo, usagef("--scenarios: %v", err)
		}
		for _, sc := range scs {
			vo.Scenarios = append(vo.Scenarios, sc.Name)
		}
	}
	return vo, f.checkFormat(set)
}
