package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/render"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/tune"
	"github.com/httpvs/httpvs/tune/tuneresult"
)

// runTune searches download knobs for h2c, h2 and h3 against h1.
func runTune(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "[flags]")
	var opts tune.Options // zero trial and budget: tune's, sized for the link too
	protoList := fs.String("protocols", "h2c,h2,h3", "transports to tune (h1 is the baseline, always measured)")
	fs.Alias("protocols", "protocol")
	fs.Alias("protocols", "p")
	fs.DurationVar(&opts.Budget, "budget", defaults.TuneBudget, "bound on the whole search (with --net, unless given: enough for the trials of each transport across the link)")
	fs.DurationVar(&opts.Trial, "trial", defaults.TuneTrial, "length of each measurement (with --net, unless given: long enough that slow start and the handshakes are a third of it at most)")
	var netSpec flagset.Strings
	fs.Var(&netSpec, "net", netFlagUsage(false))
	asJSON := fs.Bool("json", false, "print one JSON object")
	write := fs.String("write", "", "write the best settings found to `file`, a knob set for httpvs run --knobs FILE")
	fs.Fields(map[string]string{"Budget": "budget", "Trial": "trial", "Protocols": "protocols"})
	fs.Group("what to tune (from Go as shipped)", "protocols")
	fs.Group("how long", "budget", "trial")
	fs.Group("the link (across emulated network conditions)", "net")
	fs.Group("output", "json", "write")
	if _, err := fs.ParseN(args, 0, ""); err != nil {
		return err
	}
	set := fs.Given()
	if !set["budget"] {
		opts.Budget = 0
	}
	if !set["trial"] {
		opts.Trial = 0
	}
	var err error
	if opts.Protocols, err = transport.ParseList(*protoList); err != nil {
		return usagef("--protocols: %v", err)
	}
	link, err := tuneLink(netSpec.Values)
	if err != nil {
		return err
	}
	if link != nil {
		if done, err := e.inUserNS(ctx, args); done {
			return err
		}
	}
	out, err := createKnobFile(*write)
	if err != nil {
		return err
	}
	defer out.discard()
	if link != nil {
		var closeLink func()
		if opts.Link, closeLink, err = experiment.OpenTuneLink(ctx, *link); err != nil {
			return err
		}
		defer closeLink()
	}
	var prog *render.Progress
	if !*asJSON {
		if prog = render.TerminalProgress(e.stderr); prog != nil {
			opts.Progress = prog.Tune
		}
	}
	rep, err := tune.Run(ctx, opts)
	prog.Clear()
	if err != nil {
		return fs.Check(err)
	}
	if err := out.finish(e, rep, *asJSON); err != nil {
		return err
	}
	if err := e.print(*asJSON, rep, func(w io.Writer) error { return report.Tune(w, rep) }); err != nil {
		return err
	}
	if rep.Partial && ctx.Err() != nil {
		return e.fail("interrupted: the figures above are what was measured until then")
	}
	return nil
}

// tuneLink parses tune's --net (one link); nil without one.
func tuneLink(list []string) (*experiment.LinkSpec, error) {
	switch len(list) {
	case 0:
		return nil, nil
	case 1:
		p, err := oneLink(list[0])
		return &p, err
	}
	return nil, usagef("--net given %d times: tune searches across one link; run one search per link (httpvs run --net A --net B compares transports across several)", len(list))
}

// knobFile is tune --write's file, made before the search so that a path
// that cannot be written fails at once, and removed again (discard)
// unless the search's best settings were written to it (finish). A nil
// *knobFile is no --write.
type knobFile struct{ f *os.File }

func createKnobFile(path string) (*knobFile, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, usagef("--write: %v", err)
	}
	return &knobFile{f}, nil
}

func (k *knobFile) discard() {
	if k != nil && k.f != nil {
		k.f.Close()
		os.Remove(k.f.Name())
	}
}

// finish writes rep's best settings as a knob set named after the file
// and, unless asJSON, says on stderr how to use it and which values were
// one transport's best only.
func (k *knobFile) finish(e *env, rep *tuneresult.Report, asJSON bool) error {
	if k == nil {
		return nil
	}
	f := k.f
	k.f = nil
	err := rep.WriteKnobFile(f, "tune "+filepath.Base(f.Name()))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--write: %w", err)
	}
	if !asJSON {
		e.say("wrote %s: httpvs run --knobs %s measures with these settings", f.Name(), f.Name())
		fmt.Fprint(e.stderr, report.KnobConflicts(rep))
	}
	return nil
}
