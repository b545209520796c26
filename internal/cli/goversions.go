package cli

import (
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
var goRoundsText = fmt.Sprintf("%d rounds, up to %d while a ratio is wider than ±10%%, within %v, %v each", experiment.GoRounds, experiment.GoMaxRounds, experiment.GoBudget, experiment.GoDuration)

// goFlags are the run flags that go with --go; the others measure
// httpvs's own client and server, or a link, and are refused beside it.
var goFlags = []string{"go", "protocols", "scenarios", "size", "duration", "warmup", "repeat", "max-repeat", "budget", "quick", "json", "format", "out", "no-files"}

// goVersions is `run --go LIST`: the scenarios across Go toolchains
// (experiment.Options.Go), printed and written as a run's results.
func (f *runFlags) goVersions(ctx context.Context, e *env, fs *flagset.Set) error {
	xo, err := f.goOptions(fs)
	if err != nil {
		return err
	}
	if err := checkOut(f.out, f.noFiles); err != nil {
		return err
	}
	var prog *progressLine
	if isTerminal(e.stderr) {
		prog = &progressLine{w: e.stderr}
		xo.Go.Progress = func(what string) { prog.text("go versions: " + what) }
	}
	res, err := experiment.Run(ctx, xo)
	prog.clear()
	if err := f.runError(fs, err); err != nil {
		return err
	}
	return finishRun(e, f, res)
}

// goOptions turns the flags into the experiment's options across Go
// versions, as run's own rounds and lists (the preset: goversions'
// defaults, or Quick), refusing in one line a bad --go and the flags
// that do not go with it.
func (f *runFlags) goOptions(fs *flagset.Set) (experiment.Options, error) {
	versions, err := goversions.ParseVersions(f.goList)
	var ve *goversions.VersionError
	if errors.As(err, &ve) {
		return experiment.Options{}, usagef("--go %s: %s", ve.Value, ve.Reason)
	} else if err != nil {
		return experiment.Options{}, usagef("--go: %v", err)
	}
	set := fs.Given()
	for name := range set {
		if !slices.Contains(goFlags, name) {
			return experiment.Options{}, usagef("%s does not go with --go, which measures Go as shipped on loopback with a server and client of its own", fs.Typed(name))
		}
	}
	xo := f.preset()
	xo.Go.Versions = versions
	m := &xo.Matrix
	if err := f.timing(set, m); err != nil {
		return xo, err
	}
	if err := f.checkFormat(set); err != nil {
		return xo, err
	}
	if f.budgetGiven {
		xo.Budget = budgetOption(f.budget)
	}
	// Lists not given are goversions' own (h1 and h2c; download and
	// small-sequential), not the matrix's.
	if set["protocols"] {
		if m.Protocols, err = transport.ParseList(f.protocols); err != nil {
			return xo, usagef("--protocols: %v", err)
		}
	}
	if set["scenarios"] {
		if m.Scenarios, err = plan.ParseScenarios(f.scenarios); err != nil {
			return xo, usagef("--scenarios: %v", err)
		}
	}
	return xo, nil
}
