package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/runfiles"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/results"
)

// annotate gives the printer what the command knows: the flag of this
// command that sets each library field a fix names. It says the link,
// which the text report has, when printing another format.
func (f *runFlags) annotate(e *env, fs *flagset.Set, res *results.Results) {
	if res.Settings.Net != nil && f.format != "text" {
		fmt.Fprintln(e.stderr, report.NetSummary(res.Settings.Net)) // the text report has it
	}
	f.printed.Flags = func(field string) (string, bool) {
		name, ok := fs.FlagFor(field)
		if !ok {
			return "", false
		}
		return flagset.Dash(name), true
	}
	f.printed.Detail = f.detail
}

// notRunLine is n with the flag of this command that would let it run.
func notRunLine(fs *flagset.Set, n results.NotRun) string {
	if name, ok := fs.FlagFor(n.Field); ok && n.Field != "" {
		value := n.Value
		if value == "" {
			value = "NAME"
		}
		return n.String() + " (" + flagset.Dash(name) + " " + value + ")"
	}
	return n.String()
}

// finishRun prints res in the chosen format, writes the results directory
// (partial runs included) and picks the outcome: an interrupted run fails.
func finishRun(e *env, f *runFlags, res *results.Results) error {
	if err := f.printed.Print(e.stdout, f.format, res); err != nil {
		return err
	}
	dir := ""
	if !f.noFiles {
		var err error
		if dir, err = report.WriteRun(f.out, res); err != nil {
			return err
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		var names []string
		for _, entry := range entries {
			names = append(names, entry.Name())
		}
		e.say("wrote %s (%s)", dir, strings.Join(names, ", "))
	}
	if !res.Partial && f.format == "text" && res.GoVersions == nil {
		fmt.Fprint(e.stdout, NextLine(NextSteps(res, dir, f.xo.ProfileDir != "", f.ci)))
	}
	return e.fail(RunFailures(res, f.format == "text")...)
}

// checkOut makes sure, before any measuring, that run can write its
// results under dir (runfiles.CheckDir); noFiles skips the check.
func checkOut(dir string, noFiles bool) error {
	if noFiles {
		return nil
	}
	if err := runfiles.CheckDir(dir); err != nil {
		return usagef("--out %s: %v", dir, err)
	}
	return nil
}

// sweep runs xo across its links (experiment.Sweep), each printed and
// written as a run of its own as soon as it is measured, then prints the
// verdict across the links. An interrupt ends the sweep after the run it
// cut short; the table then holds the runs measured, that one marked
// partial in its own report.
func (f *runFlags) sweep(ctx context.Context, e *env, fs *flagset.Set, xo experiment.SweepOptions, prog *Progress) error {
	var outcome error
	xo.OnLink = func(i int, link experiment.LinkSpec) {
		e.say("link %d of %d: %s", i+1, len(xo.Links), link.Name)
	}
	xo.OnLinkDone = func(_ int, res *results.Results) error {
		prog.Clear()
		f.annotate(e, fs, res)
		err := finishRun(e, f, res)
		if errors.Is(err, errReported) {
			outcome, err = err, nil
		}
		return err
	}
	runs, err := experiment.Sweep(ctx, xo)
	prog.Clear()
	if err := f.runError(fs, err); err != nil {
		return err
	}
	if len(runs) < len(xo.Links) {
		outcome = e.fail(fmt.Sprintf("interrupted after %d of %d links", len(runs), len(xo.Links)))
	}
	if err := Across(e.stdout, f.format, runs); err != nil {
		return err
	}
	if !f.noFiles && len(runs) > 0 {
		dir, err := report.WriteWhen(f.out, runs)
		if err != nil {
			return err
		}
		e.say("wrote %s (when.md, when.html: the verdict across the links)", dir)
	}
	return outcome
}
