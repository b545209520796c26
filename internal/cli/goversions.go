package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/goversions"
	"github.com/httpvs/httpvs/matrix"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// goFlagUsage is run's --go.
const goFlagUsage = "measure the scenarios with a server and a client built by each Go toolchain in `list` (installed: the go on PATH; 1.24.13 or go1.24.13: fetched once through the module proxy), Go as shipped in each, instead of the matrix; download and small-sequential, over h1 and h2c unless --protocols says otherwise"

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
	var prog *progressLine
	if isTerminal(e.stderr) {
		prog = &progressLine{w: e.stderr}
		xo.Go.Progress = func(what string) { prog.text("go versions: " + what) }
	}
	res, err := experiment.Run(ctx, xo)
	prog.clear()
	var oe *experiment.OptionsError
	if errors.As(err, &oe) {
		return fs.Check(oe.Err)
	} else if err != nil {
		return err
	}
	return f.finishGo(e, res)
}

// goOptions turns the flags into the experiment's options across Go
// versions, refusing in one line a bad --go and the flags that do not go
// with it.
func (f *runFlags) goOptions(fs *flagset.Set) (experiment.Options, error) {
	versions, err := goversions.ParseVersions(f.goList)
	var ve *goversions.VersionError
	if errors.As(err, &ve) {
		return experiment.Options{}, usagef("--go %s: %s", ve.Value, ve.Reason)
	} else if err != nil {
		return experiment.Options{}, usagef("--go: %v", err)
	}
	set := fs.Given()
	if err := f.goCheck(fs, set); err != nil {
		return experiment.Options{}, err
	}
	var xo experiment.Options // the Go fields, and Matrix's lists and size
	if f.quick {
		xo = experiment.Quick()
	}
	xo.Go.Versions, xo.Matrix.Size = versions, f.size
	if err := f.goLists(set, &xo.Matrix); err != nil {
		return xo, err
	}
	f.goRounds(set, &xo.Go)
	fs.Field("Rounds", "repeat")
	fs.Field("MaxRounds", "max-repeat")
	fs.Field("Duration", "duration")
	fs.Field("Warmup", "warmup")
	fs.Field("Size", "size")
	fs.Field("Protocols", "protocols")
	fs.Field("Scenarios", "scenarios")
	return xo, nil
}

// goCheck refuses the flags that do not go with --go, and checks the
// ones that do.
func (f *runFlags) goCheck(fs *flagset.Set, set map[string]bool) error {
	for name := range set {
		if !slices.Contains(goFlags, name) {
			return usagef("%s does not go with --go, which measures Go as shipped on loopback with a server and client of its own", fs.Typed(name))
		}
	}
	if err := f.rounds(set); err != nil {
		return err
	}
	if f.asJSON {
		if set["format"] && f.format != "json" {
			return usagef("--json and --format %s disagree: give one", f.format)
		}
		f.format = "json"
	}
	if f.format != "text" && f.format != "markdown" && f.format != "json" {
		return usagef("--format %q with --go: want text, markdown or json", f.format)
	}
	return checkOut(f.out, f.noFiles)
}

// goLists sets m's transports and scenarios from --protocols and
// --scenarios, when given; the defaults are goversions' own, and
// experiment.Run refuses lists with nothing measured across versions.
func (f *runFlags) goLists(set map[string]bool, m *matrix.Options) error {
	var err error
	if set["protocols"] {
		if m.Protocols, err = transport.ParseList(f.protocols); err != nil {
			return usagef("--protocols: %v", err)
		}
	}
	if set["scenarios"] {
		if m.Scenarios, err = matrix.ParseScenarios(f.scenarios); err != nil {
			return usagef("--scenarios: %v", err)
		}
	}
	return nil
}

// goRounds sets o's rounds and times from the flags given, as f.rounds
// settled them (under --quick too: experiment.Quick's); the others are
// goversions' defaults.
func (f *runFlags) goRounds(set map[string]bool, o *experiment.GoOptions) {
	if set["repeat"] {
		o.Rounds = max(f.repeat, 2) // an interval needs two rounds
		o.MaxRounds = o.Rounds
	}
	if set["max-repeat"] {
		o.MaxRounds = f.maxRepeat
	}
	if set["duration"] {
		o.Duration = f.duration
	}
	if set["warmup"] && f.warmup > 0 {
		o.Warmup = f.warmup
	}
	if set["budget"] {
		o.Budget = f.budget
		if f.budget == 0 {
			o.Budget = -1 // --max-repeat alone bounds the rounds
		}
	}
}

// finishGo prints res, writes its results directory, and fails (exit 1)
// when a toolchain was not measured, after a line for each.
func (f *runFlags) finishGo(e *env, res *results.Results) error {
	var print func(io.Writer, *results.Results) error
	switch f.format {
	case "markdown":
		print = report.GoVersionsMarkdown
	case "json":
		print = func(w io.Writer, r *results.Results) error { return r.WriteJSON(w) }
	default:
		print = report.GoVersions
	}
	if err := print(e.stdout, res); err != nil {
		return err
	}
	if !f.noFiles {
		dir, err := report.WriteRun(f.out, res)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "httpvs run: wrote %s (results.json, report.md, report.html)\n", dir)
	}
	var failed []string
	for _, tc := range res.GoVersions.Toolchains {
		if tc.Error != "" {
			failed = append(failed, tc.Name())
			if f.format != "text" {
				fmt.Fprintf(e.stderr, "httpvs run: %s not measured: %s\n", tc.Name(), tc.Error)
			}
		}
	}
	switch {
	case res.Partial:
		fmt.Fprintf(e.stderr, "httpvs run: %s: the report holds what was measured until then, marked partial\n", res.PartialReason)
		return errReported
	case len(failed) > 0:
		fmt.Fprintf(e.stderr, "httpvs run: %d of %d toolchains not measured (%s); the others were\n", len(failed), len(res.GoVersions.Toolchains), strings.Join(failed, ", "))
		return errReported
	}
	return nil
}
