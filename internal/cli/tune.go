package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/render"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/tune"
	"github.com/httpvs/httpvs/tune/tuneresult"
)

// runTune searches download knobs for h2c, h2 and h3 against h1.
func runTune(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "tune", "[flags]")
	protoList := fs.String("protocols", "h2c,h2,h3", "transports to tune (h1 is the baseline, always measured)")
	fs.Alias("protocols", "protocol")
	fs.Alias("protocols", "p")
	budget := fs.Duration("budget", defaults.TuneBudget, "bound on the whole search (with --net: at least 20 trials per transport)")
	trial := fs.Duration("trial", defaults.TuneTrial, "length of each measurement (with --net: long enough that slow start and the handshakes are a third of it at most)")
	var netSpec netList
	fs.Var(&netSpec, "net", netFlagUsage(false))
	asJSON := fs.Bool("json", false, "print one JSON object")
	write := fs.String("write", "", "write the best settings found to `file`, a knob set for httpvs run --knobs FILE")
	fs.Group("what to tune (from Go as shipped)", "protocols")
	fs.Group("how long", "budget", "trial")
	fs.Group("the link (across emulated network conditions)", "net")
	fs.Group("output", "json", "write")
	pos, err := fs.Parse(args)
	if err != nil {
		return err
	}
	if err := checkTuneFlags(pos, *budget, *trial); err != nil {
		return err
	}
	protos, err := transport.ParseList(*protoList)
	if err != nil {
		return usagef("--protocols: %v", err)
	}
	link, err := tuneLink(netSpec)
	if err != nil {
		return err
	}
	if link != nil {
		if done, err := inUserNS(ctx, e, "tune", args); done {
			return err
		}
	}
	out, err := createKnobFile(*write)
	if err != nil {
		return err
	}
	opts := tune.Options{Protocols: protos} // zero trial and budget: tune's, sized for the link too
	set := fs.Given()
	if set["budget"] {
		opts.Budget = *budget
	}
	if set["trial"] {
		opts.Trial = *trial
	}
	if link != nil {
		var closeLink func()
		if opts.Link, closeLink, err = experiment.OpenTuneLink(ctx, *link); err != nil {
			discardKnobFile(out)
			return err
		}
		defer closeLink()
	}
	if !*asJSON && isTerminal(e.stderr) {
		opts.Progress = render.TuneProgress(e.stderr)
	}
	rep, err := tune.Run(ctx, opts)
	if opts.Progress != nil {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	if err != nil {
		return usagef("%v", err)
	}
	if err := finishKnobFile(e.stderr, out, rep, *asJSON); err != nil {
		return err
	}
	if err := renderTune(e.stdout, rep, *asJSON); err != nil {
		return err
	}
	if rep.Partial && ctx.Err() != nil {
		fmt.Fprintln(e.stderr, "httpvs tune: interrupted: the figures above are what was measured until then")
		return errReported
	}
	return nil
}

// checkTuneFlags refuses, in one line, arguments (tune takes none) and a
// --budget or --trial that is not positive.
func checkTuneFlags(pos []string, budget, trial time.Duration) error {
	switch {
	case len(pos) > 0:
		return usagef("tune takes no arguments, got %q", pos[0])
	case budget <= 0:
		return usagef("--budget %v: want a positive duration, e.g. 60s", budget)
	case trial <= 0:
		return usagef("--trial %v: want a positive duration, e.g. 300ms", trial)
	}
	return nil
}

// renderTune prints the report on w, as one JSON object when asJSON.
func renderTune(w io.Writer, rep *tuneresult.Report, asJSON bool) error {
	if asJSON {
		return report.JSON(w, rep)
	}
	return report.Tune(w, rep)
}

// createKnobFile creates tune --write's file before measuring, so that a
// path that cannot be written fails at once; nil for no --write.
func createKnobFile(path string) (*os.File, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, usagef("--write: %v", err)
	}
	return f, nil
}

// discardKnobFile closes and removes the --write file made before a
// search that did not start, so that no empty knob file is left; f may
// be nil (no --write).
func discardKnobFile(f *os.File) {
	if f == nil {
		return
	}
	f.Close()
	os.Remove(f.Name())
}

// finishKnobFile writes the report's best settings to the --write file f
// (nil for none), a knob set named after the file, and closes it; unless
// asJSON, it says on stderr how to use it and which values were one
// transport's best only.
func finishKnobFile(stderr io.Writer, f *os.File, rep *tuneresult.Report, asJSON bool) error {
	if f == nil {
		return nil
	}
	err := rep.WriteKnobFile(f, "tune "+filepath.Base(f.Name()))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--write: %w", err)
	}
	if !asJSON {
		fmt.Fprintf(stderr, "httpvs tune: wrote %s: httpvs run --knobs %s measures with these settings\n", f.Name(), f.Name())
		fmt.Fprint(stderr, report.KnobConflicts(rep))
	}
	return nil
}
