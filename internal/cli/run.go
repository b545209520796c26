package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/matrix"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// runRun runs the matrix: scenarios x transports, against a child
// `httpvs serve` on loopback (or --target), prints the tables and writes
// the results directory.
func runRun(ctx context.Context, e *env, args []string) error {
	began := time.Now()
	fs := newFlagSet(e, "run", "[flags]")
	var f runFlags
	f.register(fs)
	pos, err := fs.Parse(args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("run takes no arguments, got %q", pos[0])
	}
	if fs.Given()["go"] {
		return f.goVersions(ctx, e, fs)
	}
	opts, err := f.prepare(fs)
	if err != nil {
		return err
	}
	if err := checkOut(f.out, f.noFiles); err != nil {
		return err
	}
	if err := f.checkNet(); err != nil {
		return err
	}
	if err := f.checkPeers(); err != nil {
		return err
	}
	if err := f.browser.apply(e, fs, &f, &opts); err != nil {
		return err
	}
	if len(f.nets) > 0 {
		if done, err := inUserNS(ctx, e, "run", args); done {
			return err
		}
	}
	if f.slo != "" {
		return f.capacity(ctx, e, fs, opts, began)
	}
	if len(f.peersMissing) > 0 {
		fmt.Fprintf(e.stderr, "httpvs run: reference peers not installed: %s\n", strings.Join(f.peersMissing, ", "))
	}
	xo, prog, err := f.experiment(ctx, e, fs, opts, began)
	if err != nil {
		return err
	}
	if len(xo.Links) > 0 {
		return f.sweep(ctx, e, fs, xo, prog)
	}
	res, err := experiment.Run(ctx, xo)
	prog.clear()
	if err := f.runError(fs, err); err != nil {
		return err
	}
	f.annotate(e, fs, res)
	return finishRun(e, &f, res)
}

// experiment maps the flags, with opts their matrix options, to the
// experiment they describe (across --net's link, or its links for a
// sweep); began is when the budget started. The progress line, on a
// terminal, hears of the cells.
func (f *runFlags) experiment(ctx context.Context, e *env, fs *flagset.Set, opts matrix.Options, began time.Time) (experiment.Options, *progressLine, error) {
	acrossLink := len(f.nets) > 0
	xo := experiment.Options{
		Matrix:     opts,
		Began:      began,
		ProfileDir: f.profile,
		Peers:      f.peerList,
		Server:     f.server,
		ServerArgs: f.browser.childArgs(),
		Warn:       func(err error) { f.warn(e, err) },
		Pin:        f.noise.pin,
		OnPlan: func(p experiment.Plan) {
			// The cost up front across a link, for a budget asked for,
			// and for the user's own requests, whose cost no one knows.
			if acrossLink || f.budgetGiven || len(f.requests.lines) > 0 || f.requests.file != "" {
				fmt.Fprintln(e.stderr, costLine(p))
			}
			for _, line := range p.Sizing {
				fmt.Fprintf(e.stderr, "httpvs run: %s (--budget, --duration)\n", line)
			}
		},
	}
	xo.Links = append(xo.Links, f.nets...)
	if len(xo.Links) == 1 {
		xo.Link, xo.Links = &xo.Links[0], nil
	}
	if !acrossLink || f.budgetGiven { // else the experiment's: from its estimate
		xo.Budget = budgetOption(f.budget)
	}
	if f.target != "" || f.tlsTarget != "" {
		t, err := f.externalTarget(ctx)
		if err != nil {
			return xo, nil, err
		}
		xo.Target = t
	}
	var prog *progressLine
	if isTerminal(e.stderr) {
		prog = &progressLine{w: e.stderr}
		xo.Matrix.Progress = prog.update
		xo.ReferenceProgress = func(what string) { prog.text("reference peers: " + what) }
	}
	return xo, prog, nil
}

// runError is the command's error for experiment.Run's err: options out
// of range as a usage error naming the flag.
func (f *runFlags) runError(fs *flagset.Set, err error) error {
	var oe *experiment.OptionsError
	if errors.As(err, &oe) {
		return usagef("%v", fs.Check(oe.Err))
	}
	return err
}

// annotate adds to res what the command knows: the reference peers not
// installed and the flags that set each fix's knobs; it says the link,
// which the text report has, when printing another format.
func (f *runFlags) annotate(e *env, fs *flagset.Set, res *results.Results) {
	if res.Settings.Net != nil && f.format != "text" {
		fmt.Fprintln(e.stderr, res.Settings.Net.Summary()) // the text report has it
	}
	res.PeersMissing = f.peersMissing
	annotateFlags(fs, res)
}

// warn prints what the experiment heard that does not stop it: a profile
// not taken always; quic-go's UDP buffer warning never, since the results
// carry it and every report says it once, at its top, with its command.
func (f *runFlags) warn(e *env, err error) {
	var pe *experiment.ProfileError
	switch {
	case errors.As(err, &pe):
		printProfileError(e.stderr, pe)
	case err.Error() == transport.UDPBufferWarning():
	case f.format == "text":
		fmt.Fprintln(e.stderr, err)
	}
}

// prepare checks the flags, applies the knob set under the flags given,
// and returns the matrix options.
func (f *runFlags) prepare(fs *flagset.Set) (matrix.Options, error) {
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	// The requests may name the target: settle it before the knobs,
	// which leave the server's alone for a target.
	reqs, err := f.requests.requests(set)
	if err != nil {
		return matrix.Options{}, err
	}
	if err := f.resolveTargets(reqs); err != nil {
		return matrix.Options{}, err
	}
	ks, err := loadKnobSet(f.knobs)
	if err != nil {
		return matrix.Options{}, err
	}
	applied, err := knobsOver(fs, ks, set)
	if err != nil {
		return matrix.Options{}, err
	}
	opts, err := f.options(fs, set, reqs)
	if err != nil {
		return matrix.Options{}, err
	}
	opts.Knobs = applied // applied by the experiment; Go as shipped gets the tuned rows beside it (experiment.Options.NoTuned)
	if set["profile-span"] && (f.profile == "" || f.profileSpan <= 0) {
		return matrix.Options{}, usagef("--profile-span %v: want a positive duration, with --profile DIR", f.profileSpan)
	}
	opts.ProfileSpan = f.profileSpan
	return opts, f.checkFormat(set)
}

// checkFormat settles --json and --format (given: the flags given): one
// of text, markdown, json or benchstat, which a run across Go versions
// does not print.
func (f *runFlags) checkFormat(given map[string]bool) error {
	if f.asJSON {
		if given["format"] && f.format != "json" {
			return usagef("--json and --format %s disagree: give one", f.format)
		}
		f.format = "json"
	}
	switch {
	case f.goList != "" && f.format == "benchstat":
		return usagef("--format benchstat with --go: want text, markdown or json")
	case f.format != "text" && f.format != "markdown" && f.format != "json" && f.format != "benchstat":
		return usagef("--format %q: want text, markdown, json or benchstat", f.format)
	}
	return nil
}

// budgetOption is experiment.Options.Budget for --budget d: d, or none
// (negative) for 0, where --max-repeat alone bounds added rounds.
func budgetOption(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// externalTarget checks --target and --tls-target and returns them as
// the experiment's target.
func (f *runFlags) externalTarget(ctx context.Context) (matrix.Target, error) {
	if err := checkTargets(ctx, f.target, f.tlsTarget); err != nil {
		return matrix.Target{}, err
	}
	t := matrix.Target{Plain: strings.TrimSuffix(f.target, "/"), TLS: strings.TrimSuffix(f.tlsTarget, "/"), Insecure: f.insecure, GRPC: f.grpcTarget}
	if f.cacert != "" {
		var err error
		if t.RootCAs, err = transport.LoadCertPool(f.cacert); err != nil {
			return matrix.Target{}, usagef("--cacert: %v", err)
		}
	}
	return t, nil
}

// checkNet parses --net into its link profiles; it goes with the child
// server only.
func (f *runFlags) checkNet() error {
	if len(f.net) == 0 {
		return nil
	}
	if f.target != "" || f.tlsTarget != "" {
		return usagef("--net emulates a link to the child server; it does not apply to --target or --tls-target")
	}
	for _, text := range f.net {
		links, err := linksOf(text)
		if err != nil {
			return err
		}
		f.nets = append(f.nets, links...)
	}
	return nil
}

// options turns the flags into matrix options; set holds the flags given,
// reqs the user's requests.
func (f *runFlags) options(fs *flagset.Set, set map[string]bool, reqs []results.Request) (matrix.Options, error) {
	protos, err := f.protocolList()
	if err != nil {
		return matrix.Options{}, err
	}
	scenarios, err := f.scenarioList(set, reqs)
	if err != nil {
		return matrix.Options{}, err
	}
	if err := f.rounds(set); err != nil {
		return matrix.Options{}, err
	}
	switch {
	case f.warmup < 0:
		return matrix.Options{}, usagef("--warmup %v: want zero or more", f.warmup)
	case f.size < 0:
		return matrix.Options{}, usagef("--size must not be negative")
	case f.grpcTarget != "" && f.target == "" && f.tlsTarget == "":
		return matrix.Options{}, usagef("--grpc-target goes with --target or --tls-target (the child server has its own)")
	case (f.insecure || f.cacert != "") && f.tlsTarget == "":
		return matrix.Options{}, usagef("-k and --cacert apply to --tls-target, which is not given")
	}
	engine, err := load.ParseEngine(f.engine)
	if err != nil {
		return matrix.Options{}, usagef("--engine %q: want std or fast", f.engine)
	}
	if err := fs.Check(config.WithinField("Server", f.server.Validate())); err != nil {
		return matrix.Options{}, err
	}
	if (f.target != "" || f.tlsTarget != "") && serverFlagGiven(set) {
		return matrix.Options{}, usagef("--server-* knobs tune the child server; with --target, tune that server instead")
	}
	o := matrix.Options{
		Protocols:  protos,
		Scenarios:  scenarios,
		Repeat:     f.repeat,
		MaxRepeat:  f.maxRepeat,
		Duration:   f.duration,
		Warmup:     f.warmup,
		Omit:       omitOption(f.omit, set["omit"]),
		Size:       f.size,
		Client:     f.client,
		Engine:     engine,
		Timeout:    f.repTimeout(set),
		LossEvents: lossEventsOption(f.lossEvents),
		Header:     f.header.H,
	}
	if err := f.noise.apply(&o, f.preset(), set); err != nil {
		return matrix.Options{}, err
	}
	// The target is known only once the child server is up: validate the rest.
	return o, fs.Check(config.WithinField("Client", f.client.Validate()))
}

// repTimeout is matrix.Options.Timeout: --rep-timeout when given, else
// 0 (the matrix's default, longer across a lossy link).
func (f *runFlags) repTimeout(set map[string]bool) time.Duration {
	if set["rep-timeout"] {
		return f.timeout
	}
	return 0
}

// lossEventsOption is matrix.Options.LossEvents for --loss-events n: n,
// or none (negative) for 0.
func lossEventsOption(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// omitOption is matrix.Options.Omit for --omit d: d, or none (negative)
// for an explicit 0; 0, the link's own, when the flag is not given.
func omitOption(d time.Duration, given bool) time.Duration {
	if given && d == 0 {
		return -1
	}
	return d
}

// rounds settles --repeat, --max-repeat, --duration and --warmup under
// --quick, and checks them.
func (f *runFlags) rounds(set map[string]bool) error {
	// The experiment's presets decide what the flags left unsaid.
	m := f.preset().Matrix
	if !set["repeat"] {
		f.repeat = m.Repeat
	}
	if !set["max-repeat"] {
		f.maxRepeat = m.MaxRepeat
		if set["repeat"] {
			f.maxRepeat = 0 // fixed rounds: the --repeat asked for
		}
	}
	if !set["duration"] {
		f.duration = m.Duration // zero: the matrix's, or the link's round trips
	}
	if !set["warmup"] {
		f.warmup = m.Warmup
	}
	f.budgetGiven = set["budget"]
	switch { // the presets' own are in range (zero across Go versions: goversions')
	case set["repeat"] && (f.repeat < 1 || f.repeat > 100):
		return usagef("--repeat %d: want 1 to 100", f.repeat)
	case f.maxRepeat != 0 && (f.maxRepeat < f.repeat || f.maxRepeat > 100):
		return usagef("--max-repeat %d: want --repeat (%d) to 100", f.maxRepeat, f.repeat)
	case f.budget < 0:
		return usagef("--budget %v: want zero (no bound) or more", f.budget)
	case f.lossEvents < 0 || f.lossEvents > 100000:
		return usagef("--loss-events %d: want 0 (size by --duration) to 100000", f.lossEvents)
	case f.duration != 0 && (f.duration < 10*time.Millisecond || f.duration > time.Hour):
		return usagef("--duration %v: want 10ms to 1h", f.duration)
	}
	return nil
}

func serverFlagGiven(set map[string]bool) bool {
	for name := range set {
		if strings.HasPrefix(name, "server-") {
			return true
		}
	}
	return false
}
