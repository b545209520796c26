package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/browser"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/results"
)

// runRun runs the matrix: scenarios x transports, against a child
// `httpvs serve` on loopback (or --target), prints the tables and writes
// the results directory.
func runRun(ctx context.Context, e *env, args []string) error {
	began := time.Now()
	fs, f, err := parseRun(e, args)
	if err != nil {
		return err
	}
	if fs.Given()["go"] {
		return f.goVersions(ctx, e, fs)
	}
	if err := f.prepare(fs); err != nil {
		return err
	}
	xo := &f.xo
	if err := checkOut(f.out, f.noFiles); err != nil {
		return err
	}
	if err := f.checkNet(); err != nil {
		return err
	}
	if err := f.checkPeers(); err != nil {
		return err
	}
	if err := f.browser.apply(fs, f, &xo.Matrix); err != nil {
		return err
	}
	if len(f.nets) > 0 {
		if done, err := e.inUserNS(ctx, args); done {
			return err
		}
	}
	if f.slo != "" {
		return f.capacity(ctx, e, fs, began)
	}
	prog, err := f.experiment(e, fs, began)
	if err != nil {
		return err
	}
	if len(f.nets) > 1 {
		return f.sweep(ctx, e, fs, experiment.SweepOptions{Base: xo.Base, Links: f.nets}, prog)
	}
	res, err := experiment.Run(ctx, *xo)
	prog.Clear()
	if err := f.runError(fs, err); err != nil {
		return err
	}
	f.annotate(e, fs, res)
	return finishRun(e, f, res)
}

// experiment completes f.xo, prepared, into the experiment the flags
// describe (across --net's link; a sweep takes its Base); began is when
// the budget started. The progress line, on a terminal, hears of the
// cells.
func (f *runFlags) experiment(e *env, fs *flagset.Set, began time.Time) (*Progress, error) {
	xo, acrossLink, budgetGiven := &f.xo, len(f.nets) > 0, fs.Given()["budget"]
	xo.Began = began
	xo.Warn = func(err error) { f.warn(e, err) }
	xo.OnCost = func(p experiment.Cost) {
		if len(p.PeersMissing) > 0 {
			e.say("reference peers not installed: %s", strings.Join(p.PeersMissing, ", "))
		}
		if f.external() {
			f.sayStats(e) // the target passed the experiment's checks
		}
		// The cost up front across a link, for a budget asked for,
		// and for the user's own requests, whose cost no one knows.
		if acrossLink || budgetGiven || len(f.requests.lines) > 0 || f.requests.file != "" {
			fmt.Fprintln(e.stderr, CostLine(p))
		}
		for _, line := range p.Sizing {
			e.say("%s (--budget, --duration)", line)
		}
	}
	if err := f.place(xo); err != nil {
		return nil, err
	}
	prog := TerminalProgress(e.stderr)
	if prog != nil {
		xo.Matrix.Progress = prog.Cell
		xo.ReferenceProgress = func(what string) { prog.Text("reference peers: " + what) }
	}
	return prog, nil
}

// runError is the command's error for experiment.Run's err: options out
// of range as a usage error naming the flag.
func (f *runFlags) runError(fs *flagset.Set, err error) error {
	var (
		oe *experiment.OptionsError
		se *experiment.ServerNameError
		nt interface{ Lacking() []results.NotRun }
	)
	switch {
	case errors.As(err, &nt):
		lacking := nt.Lacking()
		parts := make([]string, len(lacking))
		for i, n := range lacking {
			parts[i] = notRunLine(fs, n)
		}
		return fmt.Errorf("nothing to measure on this target: %s", strings.Join(parts, "; "))
	case errors.As(err, &oe):
		return usagef("%v", fs.Check(oe.Err))
	case errors.As(err, &se):
		return fmt.Errorf("--tls-target %s: the server refused the TLS handshake (%v): likely because TLS sends no server name (SNI) to an IP address and the server chose no certificate without one; give the name its certificate is for: --sni NAME, e.g. --sni localhost", se.URL, se.Err)
	}
	return err
}

// warn prints what the experiment heard that does not stop it: a profile
// not taken always; quic-go's UDP buffer warning never, since the results
// carry it and every report says it once, at its top, with its command.
func (f *runFlags) warn(e *env, err error) {
	var (
		pe *serverctl.ProfileError
		nf *browser.NotFoundError
		sn *experiment.ServerNameNote
	)
	switch {
	case errors.As(err, &sn):
		e.say("--tls-target %s is an IP address, for which TLS sends no server name (SNI): sending its certificate's name, %s, over h1-tls, h2 and h3 (--sni NAME sends another)", sn.URL, sn.Name)
	case errors.As(err, &pe):
		printProfileError(e.stderr, pe)
	case errors.As(err, &nf):
		e.say("--browser: %v; measuring without it", err)
	case err.Error() == dial.UDPBufferWarning():
	case f.format == "text":
		fmt.Fprintln(e.stderr, err)
	}
}

// prepare checks the flags and completes f.xo, the preset under the
// flags given, with the matrix they describe: the knob set (applied by
// the experiment, once) under the flags given, the transports, scenarios
// and rounds.
func (f *runFlags) prepare(fs *flagset.Set) error {
	set := fs.Given()
	// The requests may name the target: settle it before the transports.
	reqs, err := f.requests.requests(set)
	if err != nil {
		return err
	}
	f.reqs = reqs
	if err := f.resolveTargets(reqs); err != nil {
		return err
	}
	ks, err := loadKnobSet(f.knobs)
	if err != nil {
		return err
	}
	m := &f.xo.Matrix
	// Go as shipped gets the tuned rows beside it (experiment.Options.NoTuned).
	if m.Knobs, err = knobsOver(fs, ks, set); err != nil {
		return err
	}
	if err := f.options(fs, set, reqs); err != nil {
		return err
	}
	f.applyAA(set)
	if set["profile-span"] && f.xo.ProfileDir == "" {
		return usagef("--profile-span %v goes with --profile DIR", m.ProfileSpan)
	}
	if f.xo.ProfileDir != "" && m.Repeat != 0 && max(m.Repeat, m.MaxRepeat) < 2 {
		// Profiles are taken of the cells the verdict calls slower; one
		// round per cell gives no verdict, so none would be taken.
		return usagef("--profile %s profiles the cells the verdict calls slower, and one round per cell (--quick, --repeat 1) gives no verdict: drop --quick, or give --repeat 3 or more", f.xo.ProfileDir)
	}
	return f.checkFormat(set)
}

// applyAA sets the A/A columns --aa names over the preset's (the
// experiment checks the names against the scenarios); given holds the
// flags given.
func (f *runFlags) applyAA(given map[string]bool) {
	switch {
	case !given["aa"]:
	case f.aa == "none" || f.aa == "":
		f.xo.Matrix.AA, f.xo.NoAA = nil, true
	default:
		f.xo.Matrix.AA = strings.Split(strings.ReplaceAll(f.aa, " ", ""), ",")
	}
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
	case RunFormats[f.format] == nil:
		return usagef("--format %q: want text, markdown, json or benchstat", f.format)
	}
	return nil
}

// sayStats says, before a run against a target starts, that the target's
// /stats is read too, unless --no-server-stats turned that off (the
// server's CPU is then read from /proc on loopback, without a word:
// nothing is asked of the target).
func (f *runFlags) sayStats(e *env) {
	if !f.xo.Matrix.NoServerStats {
		e.say("reading the target's counters too: GET /stats before and after each repetition (httpvs serve answers; after another server's 404 its CPU is read from /proc when it listens on this machine's loopback); --no-server-stats turns it off")
	}
}

// place sets where xo measures: across --net's one link, or at --target
// and --tls-target, the experiment's target, which checks them; else on
// loopback against the child server.
func (f *runFlags) place(xo *experiment.Options) (err error) {
	if len(f.nets) == 1 {
		xo.Link = &f.nets[0]
	}
	if f.cacert != "" { // with --tls-target (options)
		if xo.Target.RootCAs, err = flagset.LoadCertPool(f.cacert); err != nil {
			return usagef("--cacert: %v", err)
		}
	}
	return nil
}

// external says whether run measures --target or --tls-target's server.
func (f *runFlags) external() bool { return f.xo.Target.Plain != "" || f.xo.Target.TLS != "" }

// checkNet parses --net into its link profiles; it goes with the child
// server only.
func (f *runFlags) checkNet() error {
	if len(f.net) == 0 {
		return nil
	}
	if f.external() {
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

// checkPeers reads --peers, names or auto, which the experiment resolves
// into the peers installed and those missing.
func (f *runFlags) checkPeers() error {
	switch {
	case f.peers == "":
	case len(f.net) > 0:
		return usagef("--peers runs the reference peers on loopback; it does not go with --net")
	default:
		f.xo.Peers = strings.Split(f.peers, ",")
	}
	return nil
}

// options sets f.xo's matrix as the flags say over the preset's; set
// holds the flags given, reqs the user's requests.
func (f *runFlags) options(fs *flagset.Set, set map[string]bool, reqs []results.Request) error {
	m, t := &f.xo.Matrix, f.xo.Target
	var err error
	if m.Protocols, err = f.protocolList(); err != nil {
		return err
	}
	if m.Scenarios, err = f.scenarioList(set, reqs); err != nil {
		return err
	}
	switch {
	case t.GRPC != "" && !f.external():
		return usagef("--grpc-target goes with --target or --tls-target (the child server has its own)")
	case (t.Insecure || f.cacert != "" || t.ServerName != "") && t.TLS == "":
		return usagef("-k, --cacert and --sni apply to --tls-target, which is not given")
	case m.NoServerStats && !f.external():
		return usagef("--no-server-stats goes with --target or --tls-target: the child server's counters are the run's server figures")
	case set["in-flight"] && f.slo == "":
		return usagef("--in-flight goes with --slo: the matrix's scenarios set their own connections and streams")
	case f.external() && serverFlagGiven(set):
		return usagef("--server-* knobs tune the child server; with --target, tune that server instead")
	}
	m.Header = f.header.H
	if set["precision"] {
		if m.Precision, err = precisionOption(f.precision); err != nil {
			return err
		}
	}
	return fs.Check(m.Engine.UnmarshalText([]byte(f.engine))) // the experiment checks the ranges: runError names the flag
}

// precisionOption is plan.Options.Precision for --precision s: "10%"
// or "10" is 0.10; the experiment checks its range.
func precisionOption(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || v <= 0 {
		return 0, usagef("--precision %q: want a half-width in percent, e.g. 10%% (plans every cell to ±10%%)", s)
	}
	return v / 100, nil
}

func serverFlagGiven(set map[string]bool) bool {
	for name := range set {
		if strings.HasPrefix(name, "server-") {
			return true
		}
	}
	return false
}
