package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/render"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/results"
)

// sweep runs xo across its links (experiment.Sweep), each printed and
// written as a run of its own as soon as it is measured, then prints the
// verdict across the links. An interrupt ends the sweep after the run it
// cut short; the table then holds the runs measured, that one marked
// partial in its own report.
func (f *runFlags) sweep(ctx context.Context, e *env, fs *flagset.Set, xo experiment.SweepOptions, prog *render.Progress) error {
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
	switch f.format {
	case "text":
		fmt.Fprintln(e.stdout)
		err = report.When(e.stdout, runs)
	case "markdown":
		fmt.Fprintln(e.stdout)
		err = report.WhenMarkdown(e.stdout, runs)
	}
	if err != nil {
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
