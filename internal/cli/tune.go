package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/runfiles"
	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/tune"
	"github.com/httpvs/httpvs/tune/tuneresult"
)

// runTune searches download knobs for h2c, h2 and h3 against h1.
func runTune(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "[flags]")
	var opts tune.Options // zero trial and budget: tune's, sized for the link too
	protoList := fs.String("protocols", defaults.TuneProtocols, "transports to tune (h1 is the baseline, always measured)")
	fs.Alias("protocols", "protocol")
	fs.Alias("protocols", "p")
	fs.DurationVar(&opts.Budget, "budget", 0, "bound on the whole search (with --net, unless given: enough for the trials of each transport across the link)")
	fs.DurationVar(&opts.Trial, "trial", 0, "length of each measurement (with --net, unless given: long enough that slow start and the handshakes are a third of it at most)")
	var netSpec []string
	fs.Func("net", netFlagUsage(false), func(text string) error {
		netSpec = append(netSpec, text)
		return nil
	})
	asJSON := fs.Bool("json", false, "print one JSON object")
	write := fs.String("write", "", "write the best settings found to `file`, a knob set for httpvs run --knobs FILE")
	fs.ShowDefaults(map[string]any{"budget": defaults.TuneBudget, "trial": defaults.TuneTrial})
	fs.Fields(map[string]string{"Budget": "budget", "Trial": "trial", "Protocols": "protocols"})
	fs.Group("what to tune (from Go as shipped)", "protocols")
	fs.Group("how long", "budget", "trial")
	fs.Group("the link (across emulated network conditions)", "net")
	fs.Group("output", "json", "write")
	if _, err := fs.ParseN(args, 0, ""); err != nil {
		return err
	}
	var err error
	if opts.Protocols, err = transport.ParseList(*protoList); err != nil {
		return usagef("--protocols: %v", err)
	}
	link, err := tuneLink(netSpec)
	if err != nil {
		return err
	}
	if link != nil {
		if done, err := e.inUserNS(ctx, args); done {
			return err
		}
	}
	if *write != "" {
		if err := runfiles.CheckFile(*write); err != nil {
			return usagef("--write: %v", err)
		}
	}
	var prog *Progress
	if !*asJSON {
		if prog = TerminalProgress(e.stderr); prog != nil {
			opts.Progress = prog.Tune
		}
	}
	rep, err := experiment.Tune(ctx, opts, link)
	prog.Clear()
	if err != nil {
		return fs.Check(err)
	}
	if *write != "" {
		if err := writeKnobFile(e, *write, rep, *asJSON); err != nil {
			return err
		}
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

// writeKnobFile writes rep's best settings to path as a knob set named
// after the file and, unless asJSON, says on stderr how to use it (the
// report says which values were one transport's best only).
func writeKnobFile(e *env, path string, rep *tuneresult.Report, asJSON bool) error {
	err := runfiles.WriteFile(path, func(w io.Writer) error { return rep.WriteKnobFile(w, "tune "+filepath.Base(path)) })
	if err != nil {
		return fmt.Errorf("--write: %w", err)
	}
	if !asJSON {
		e.say("wrote %s: httpvs run --knobs %s measures with these settings", path, path)
	}
	return nil
}
