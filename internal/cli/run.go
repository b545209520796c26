package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/certfile"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/fielderr"
	"github.com/httpvs/httpvs/internal/profiling"
	"github.com/httpvs/httpvs/internal/render"
	"github.com/httpvs/httpvs/internal/udpbuf"
	"github.com/httpvs/httpvs/internal/verdict"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
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
	xo, err := f.prepare(fs)
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
	if err := f.browser.apply(e, fs, &f, &xo.Matrix); err != nil {
		return err
	}
	if len(f.nets) > 0 {
		if done, err := inUserNS(ctx, e, "run", args); done {
			return err
		}
	}
	if f.slo != "" {
		return f.capacity(ctx, e, fs, xo.Matrix, began)
	}
	if len(f.peersMissing) > 0 {
		fmt.Fprintf(e.stderr, "httpvs run: reference peers not installed: %s\n", strings.Join(f.peersMissing, ", "))
	}
	prog, err := f.experiment(ctx, e, &xo, began)
	if err != nil {
		return err
	}
	if len(f.nets) > 1 {
		return f.sweep(ctx, e, fs, experiment.SweepOptions{Base: xo.Base, Links: f.nets}, prog)
	}
	res, err := experiment.Run(ctx, xo)
	prog.clear()
	if err := f.runError(fs, err); err != nil {
		return err
	}
	f.annotate(e, fs, res)
	return finishRun(e, &f, res)
}

// experiment completes xo, the preset with the matrix the flags give
// (prepare), into the experiment they describe (across --net's link;
// a sweep takes its Base); began is when the budget started. The progress
// line, on a terminal, hears of the cells.
func (f *runFlags) experiment(ctx context.Context, e *env, xo *experiment.Options, began time.Time) (*progressLine, error) {
	acrossLink := len(f.nets) > 0
	xo.Began, xo.ProfileDir, xo.Peers, xo.Pin = began, f.profile, f.peerList, f.noise.pin
	xo.Server = f.server
	xo.Warn = func(err error) { f.warn(e, err) }
	xo.OnPlan = func(p experiment.Plan) {
		if f.target != "" || f.tlsTarget != "" {
			f.sayStats(e) // the target passed the experiment's checks
		}
		// The cost up front across a link, for a budget asked for,
		// and for the user's own requests, whose cost no one knows.
		if acrossLink || f.budgetGiven || len(f.requests.lines) > 0 || f.requests.file != "" {
			fmt.Fprintln(e.stderr, render.CostLine(p))
		}
		for _, line := range p.Sizing {
			fmt.Fprintf(e.stderr, "httpvs run: %s (--budget, --duration)\n", line)
		}
	}
	xo.Link = nil
	if len(f.nets) == 1 {
		xo.Link = &f.nets[0]
	}
	if f.budgetGiven { // else the experiment's
		xo.Budget = budgetOption(f.budget)
	}
	if f.target != "" || f.tlsTarget != "" {
		t, err := f.externalTarget()
		if err != nil {
			return nil, err
		}
		xo.Target = t
	}
	var prog *progressLine
	if isTerminal(e.stderr) {
		prog = &progressLine{w: e.stderr}
		xo.Matrix.Progress = prog.update
		xo.ReferenceProgress = func(what string) { prog.text("reference peers: " + what) }
	}
	return prog, nil
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
		fmt.Fprintln(e.stderr, verdict.NetSummary(res.Settings.Net)) // the text report has it
	}
	res.PeersMissing = f.peersMissing
	annotateFlags(fs, res)
}

// warn prints what the experiment heard that does not stop it: a profile
// not taken always; quic-go's UDP buffer warning never, since the results
// carry it and every report says it once, at its top, with its command.
func (f *runFlags) warn(e *env, err error) {
	var pe *profiling.ProfileError
	switch {
	case errors.As(err, &pe):
		printProfileError(e.stderr, pe)
	case err.Error() == udpbuf.Warning():
	case f.format == "text":
		fmt.Fprintln(e.stderr, err)
	}
}

// prepare checks the flags and returns the experiment's preset with the
// matrix they describe: the knob set (applied by the experiment, once)
// under the flags given, the transports, scenarios and rounds.
func (f *runFlags) prepare(fs *flagset.Set) (experiment.Options, error) {
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	// The requests may name the target: settle it before the transports.
	reqs, err := f.requests.requests(set)
	if err != nil {
		return experiment.Options{}, err
	}
	if err := f.resolveTargets(reqs); err != nil {
		return experiment.Options{}, err
	}
	ks, err := loadKnobSet(f.knobs)
	if err != nil {
		return experiment.Options{}, err
	}
	xo := f.preset()
	m := &xo.Matrix
	// Go as shipped gets the tuned rows beside it (experiment.Options.NoTuned).
	if m.Knobs, err = knobsOver(fs, ks, set); err != nil {
		return xo, err
	}
	if err := f.options(fs, set, reqs, m); err != nil {
		return xo, err
	}
	if err := f.noise.apply(m, &xo.NoAA, set); err != nil {
		return xo, err
	}
	if set["profile-span"] && (f.profile == "" || f.profileSpan <= 0) {
		return xo, usagef("--profile-span %v: want a positive duration, with --profile DIR", f.profileSpan)
	}
	m.ProfileSpan = f.profileSpan
	if f.profile != "" && max(m.Repeat, m.MaxRepeat) < 2 {
		// Profiles are taken of the cells the verdict calls slower; one
		// round per cell gives no verdict, so none would be taken.
		return xo, usagef("--profile %s profiles the cells the verdict calls slower, and one round per cell (--quick, --repeat 1) gives no verdict: drop --quick, or give --repeat 3 or more", f.profile)
	}
	return xo, f.checkFormat(set)
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

// sayStats says, before a run against a target starts, that the target's
// /stats is read too, unless --no-server-stats turned that off.
func (f *runFlags) sayStats(e *env) {
	if !f.noServerStats {
		fmt.Fprintln(e.stderr, "httpvs run: reading the target's counters too: GET /stats before and after each repetition (httpvs serve answers; another server's 404 leaves the server's figures out); --no-server-stats turns it off")
	}
}

// externalTarget returns --target and --tls-target as the experiment's
// target, which checks them.
func (f *runFlags) externalTarget() (plan.Target, error) {
	t := plan.Target{Plain: strings.TrimSuffix(f.target, "/"), TLS: strings.TrimSuffix(f.tlsTarget, "/"), Insecure: f.insecure, GRPC: f.grpcTarget}
	if f.cacert != "" {
		var err error
		if t.RootCAs, err = certfile.LoadCertPool(f.cacert); err != nil {
			return plan.Target{}, usagef("--cacert: %v", err)
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

// options sets m, the preset's matrix, as the flags say; set holds the
// flags given, reqs the user's requests.
func (f *runFlags) options(fs *flagset.Set, set map[string]bool, reqs []results.Request, m *plan.Options) error {
	var err error
	if m.Protocols, err = f.protocolList(); err != nil {
		return err
	}
	if m.Scenarios, err = f.scenarioList(set, reqs); err != nil {
		return err
	}
	if err := f.timing(set, m); err != nil {
		return err
	}
	switch {
	case f.grpcTarget != "" && f.target == "" && f.tlsTarget == "":
		return usagef("--grpc-target goes with --target or --tls-target (the child server has its own)")
	case (f.insecure || f.cacert != "") && f.tlsTarget == "":
		return usagef("-k and --cacert apply to --tls-target, which is not given")
	case f.noServerStats && f.target == "" && f.tlsTarget == "":
		return usagef("--no-server-stats goes with --target or --tls-target: the child server's counters are the run's server figures")
	}
	m.NoServerStats = f.noServerStats
	if m.Engine, err = load.ParseEngine(f.engine); err != nil {
		return usagef("--engine %q: want std or fast", f.engine)
	}
	if err := fs.Check(fielderr.Within("Server", f.server.Validate())); err != nil {
		return err
	}
	if (f.target != "" || f.tlsTarget != "") && serverFlagGiven(set) {
		return usagef("--server-* knobs tune the child server; with --target, tune that server instead")
	}
	m.Omit, m.Client, m.Timeout = omitOption(f.omit, set["omit"]), f.client, f.repTimeout(set)
	m.LossEvents, m.Header = lossEventsOption(f.lossEvents), f.header.H
	// The target is known only once the child server is up: validate the rest.
	return fs.Check(fielderr.Within("Client", f.client.Validate()))
}

// repTimeout is plan.Options.Timeout: --rep-timeout when given, else
// 0 (the matrix's default, longer across a lossy link).
func (f *runFlags) repTimeout(set map[string]bool) time.Duration {
	if set["rep-timeout"] {
		return f.timeout
	}
	return 0
}

// precisionOption is plan.Options.Precision for --precision s: "10%"
// or "10" is 0.10.
func precisionOption(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || v < 1 || v > 50 {
		return 0, usagef("--precision %q: want a half-width in percent, 1%% to 50%% (10%% plans every cell to ±10%%)", s)
	}
	return v / 100, nil
}

// lossEventsOption is plan.Options.LossEvents for --loss-events n: n,
// or none (negative) for 0.
func lossEventsOption(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// omitOption is plan.Options.Omit for --omit d: d, or none (negative)
// for an explicit 0; 0, the link's own, when the flag is not given.
func omitOption(d time.Duration, given bool) time.Duration {
	if given && d == 0 {
		return -1
	}
	return d
}

// timing sets m's rounds, times and size from the flags given over the
// preset's (which m holds); set holds the flags given. The library checks
// their ranges (experiment.Run's *OptionsError, named by flag); the
// flags' own zeros, which mean "none", are checked here.
func (f *runFlags) timing(set map[string]bool, m *plan.Options) error {
	f.budgetGiven = set["budget"]
	if set["repeat"] {
		m.Repeat, m.MaxRepeat = f.repeat, 0 // fixed rounds, unless --max-repeat says more
	}
	if set["max-repeat"] {
		m.MaxRepeat = f.maxRepeat
	}
	if set["precision"] {
		p, err := precisionOption(f.precision)
		if err != nil {
			return err
		}
		m.Precision = p
	}
	if set["duration"] {
		m.Duration = f.duration // else the preset's; zero: the matrix's, or the link's round trips
	}
	if set["warmup"] {
		m.Warmup = f.warmup
	}
	m.Size = f.size
	switch {
	case f.budget < 0:
		return usagef("--budget %v: want zero (no bound) or more", f.budget)
	case f.lossEvents < 0 || f.lossEvents > 100000:
		return usagef("--loss-events %d: want 0 (size by --duration) to 100000", f.lossEvents)
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
