package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/knobs"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/peers"
	"github.com/httpvs/httpvs/internal/requests"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
)

// runFlags are httpvs run's flags: those the experiment takes as they
// are bound to its options, xo, over the preset (parseRun); the others to
// read.
type runFlags struct {
	xo                   experiment.Options
	protocols, scenarios string
	precision            string // --precision: a half-width every cell is planned to, "10%"
	aa                   string // --aa, as given
	quick                bool
	ci                   bool // --ci: experiment.CI
	engine               string
	format               string
	detail               bool // text: the detail tables after the first screen
	out                  string
	noFiles              bool
	cacert               string
	header               flagset.Header
	knobs                string
	asJSON               bool
	peers                string                // --peers, as given
	net                  []string              // --net, as given: one link each, run in order
	browser              browserFlags          // --browser, --chromium, --page
	nets                 []experiment.LinkSpec // --net's link profiles, one per run
	goList               string                // --go: Go toolchains to compare (goversions.go)
	requests             requestFlags          // --request, --requests, --body
	reqs                 []results.Request     // the requests they give (prepare)
	slo                  string                // --slo: a capacity search instead of the matrix (slo.go)
	inFlight             int                   // --in-flight: the search's requests in flight at most
	printed              Runs                  // the runs printed on stdout: a sweep's links
}

// parseRun parses run's command line into its flags over the
// experiment's preset: the zero Options (`httpvs run`'s, or across --net's
// link its own, and --go's), or with --quick experiment.Quick, the flags
// given parsed again over it.
func parseRun(e *env, args []string) (*flagset.Set, *runFlags, error) {
	fs, f, err := parseOver(e, args, experiment.Options{})
	switch {
	case err == nil && f.ci && f.goList == "":
		fs, f, err = parseOver(e, args, experiment.CI())
	case err == nil && f.quick && f.goList == "":
		fs, f, err = parseOver(e, args, experiment.Quick())
	}
	return fs, f, err
}

// parseOver parses args into run's flags, those bound to the experiment's
// fields over preset.
func parseOver(e *env, args []string, preset experiment.Options) (*flagset.Set, *runFlags, error) {
	fs := newFlagSet(e, "[flags]")
	f := &runFlags{xo: preset}
	f.register(fs)
	_, err := fs.ParseN(args, 0, "")
	return fs, f, err
}

func (f *runFlags) register(fs *flagset.Set) {
	fs.About = fmt.Sprintf(runAbout, 100*analysis.Matters)
	m := &f.xo.Matrix
	fs.StringVar(&f.protocols, "protocols", "all", "comma-separated transports (h1, h2c, h1-tls, h2, h3) or all")
	fs.Alias("protocols", "protocol")
	fs.Alias("protocols", "p")
	fs.StringVar(&f.scenarios, "scenarios", "all", "comma-separated scenarios ("+plan.ScenarioNames()+", "+requests.RequestGroup+": your --request and --requests) or all (the default matrix; with --net: all but download-parallel-100, and net; with --target and your requests: "+requests.RequestGroup+" alone)")
	fs.Var(&m.Size, "size", "fixed total body `size` of transfer cells, split across their streams (default: sized per transport to take --duration)")
	fs.DurationVar(&m.Duration, "duration", m.Duration, fmt.Sprintf("measured time of each load repetition, and the time transfers are sized to take (with --net: %d round trips of the link, at least 100ms)", defaults.LinkWindowRTTs))
	fs.Alias("duration", "d")
	fs.DurationVar(&m.Warmup, "warmup", m.Warmup, fmt.Sprintf("unmeasured time before each load repetition, longer until every connection has finished a request (at most twice as long) (default --duration/4; with --net at least %d round trips)", defaults.LinkWarmupRTTs))
	fs.DurationVar(&m.Omit, "omit", m.Omit, "leave each transfer's first `duration` out of its rate, as iperf3 --omit (default: none on loopback; with --net the link's handshakes and slow start, from its round trip and rate; 0: none)")
	fs.DurationVar(&m.Timeout, "rep-timeout", m.Timeout, "bound on each repetition of a cell (with --net on a lossy link: at least twice the longest transfer expected, unless given)")
	fs.IntVar(&m.LossEvents, "loss-events", defaults.LossEvents, "with --net on a lossy link: size each transfer to see this many losses (losses/loss packets), so that a loss-limited controller's rate is its average, not where its window happened to be; the run says before it starts how long that takes; 0: size by --duration alone")
	fs.Renamed("timeout", "--timeout bounds one request in get, put and load; run's bound on each repetition is --rep-timeout")
	fs.IntVar(&m.Repeat, "repeat", m.Repeat, fmt.Sprintf("rounds every cell gets, after a warm-up round; past them rounds go to the cells whose verdict is still undetermined, each stopping once decided (%d with --net)", defaults.LinkRepeat))
	fs.IntVar(&m.MaxRepeat, "max-repeat", m.MaxRepeat, fmt.Sprintf("most rounds a cell gets: the last of the looks its interval is sized for (default %d; --repeat when that is given, and with --quick)", defaults.RunMaxRepeat))
	fs.DurationVar(&f.xo.Budget, "budget", f.xo.Budget, fmt.Sprintf("the run ends within this `duration` of its start: the first rounds are fitted to it (each repetition cut to 50ms unless --duration is given, then the rounds to 3 at least; the run says so before it starts), and added rounds start only if they end within it (with --net: the first rounds' estimated time and %.0f%% of it again, printed before they start); 0: --max-repeat alone bounds them", 100*defaults.LinkBudgetShare))
	fs.StringVar(&f.precision, "precision", "", "plan the rounds past --repeat for precision instead: every cell's, from its first rounds' spread, to bring its interval within ±`pct` (10%), whatever its verdict (up to --max-repeat, within --budget; with --net this is the default)")
	fs.BoolVar(&f.xo.Pin, "pin", false, "on loopback with the child server and a quiet machine, pin the generator and the server each to its own half of the CPUs (one core each on two), GOMAXPROCS to match: more cells settle (their goroutines no longer trade cores), but each side has one core where Go as shipped has all, which moves the answer (measured: bench/verdict.sh, docs/measurements/)")
	fs.StringVar(&f.aa, "aa", "", "scenarios that measure the baseline a second time, as an A/A column in the same rounds, whose interval is the run's noise floor: a `list`, all, each-kind (the first scenario of each kind of work: a transfer, a request load, gRPC), or none (default each-kind; none with --quick and --net)")
	fs.Uint64Var(&m.Seed, "seed", 0, "seed of each round's random column order (default: from the clock; the results record it)")
	fs.BoolVar(&f.quick, "quick", false, fmt.Sprintf("one %v repetition per cell (%s); too few for httpvs compare's test: --ci for a gate; explicit --repeat and --duration still apply", defaults.QuickDuration, planTakes(experiment.Quick())))
	fs.BoolVar(&f.ci, "ci", false, fmt.Sprintf("%d rounds of %v a cell: the rounds httpvs compare --fail-on needs to gate one CI run against another (%s; what the gate catches: docs/ci.md); explicit --repeat and --duration still apply", defaults.CIRounds, defaults.CIDuration, planTakes(experiment.CI())))
	fs.StringVar(&f.engine, "engine", load.Std.String(), "load engine for request scenarios: std (net/http and quic-go's http3, what your code uses) or fast (httpvs's lean h1/h2/h3 client)")
	fs.BoolVar(&f.asJSON, "json", false, "print results.json to stdout (same as --format json)")
	fs.BoolVar(&f.detail, "detail", false, "text: print the detail tables (medians, CPU, frames, each finding's evidence) after the first screen; report.md and report.html always have them")
	fs.StringVar(&f.format, "format", "text", "what to print: text (tables), markdown, json (results.json) or benchstat (Go benchmark format)")
	fs.StringVar(&f.out, "out", "httpvs-results", "`dir`ectory for <timestamp>/results.json, report.md, report.html and bench.txt")
	fs.BoolVar(&f.noFiles, "no-files", false, "print only; write no results directory")
	fs.StringVar(&f.xo.ProfileDir, "profile", "", "profile the client and the child server in rounds of their own after the measured ones, for the baseline and each transfer or load cell slower than it, and say where each one's extra CPU went (also httpvs explain); the profiles go to `dir` (SCENARIO_TRANSPORT.{client,server}.{cpu,heap}.pprof, a variant's ':' as '+': download+tuned_h2)")
	fs.DurationVar(&m.ProfileSpan, "profile-span", defaults.ProfileSpan, "with --profile: the least each profiling round lasts; a profile holds about 100 samples per second of a busy core, and explain says when a side held too few to trust its shares")
	fs.StringVar(&f.xo.Target.Plain, "target", "", "measure this server's h1 and h2c instead of a child server: base `URL` http://host:port; with --request or --requests, those alone unless --scenarios names more")
	fs.StringVar(&f.xo.Target.TLS, "tls-target", "", "measure this server's h1-tls, h2 and h3: base `URL` https://host:port")
	fs.StringVar(&f.xo.Target.GRPC, "grpc-target", "", "with --target or --tls-target: `host:port` of the server's native gRPC Bookstore (httpvs serve --grpc-listen) for the grpc-native column")
	fs.BoolVar(&f.xo.Target.Insecure, "k", false, "with --tls-target: skip certificate verification")
	fs.Alias("k", "insecure")
	fs.BoolVar(&m.NoServerStats, "no-server-stats", false, "with --target or --tls-target: do not read the target's GET /stats before and after each repetition (httpvs serve's counters: the server's CPU and its side of each cell; a server on this machine's loopback still has its CPU read from /proc); without it the run says up front that it reads them")
	fs.StringVar(&f.cacert, "cacert", "", "with --tls-target: trust the PEM certificates in `file`")
	fs.StringVar(&f.xo.Target.ServerName, "sni", "", "with --tls-target: the TLS server `name` sent (SNI) and verified over h1-tls, h2 and h3, e.g. localhost (default: the URL's host; for an IP address, which TLS sends no name for, the name of the certificate the server presents over TCP)")
	fs.HeaderVar(&f.header)
	registerRequests(fs, &f.requests)
	fs.StringVar(&f.slo, "slo", "", sloUsage)
	fs.IntVar(&f.inFlight, "in-flight", 0, fmt.Sprintf("with --slo: the requests in flight at most (h1 connections, h2 and h3 streams on one): across --net they carry at most this many over the link's round trip, which the search prints beside the capacities (default %d)", defaults.CapacityInFlight))
	// Go as shipped, the baseline users ask about, unless told.
	fs.StringVar(&f.knobs, "knobs", knobs.GoDefault.Name, knobsUsage)
	fs.Func("net", netFlagUsage(true), func(text string) error {
		f.net = append(f.net, text)
		return nil
	})
	fs.StringVar(&f.goList, "go", "", goFlagUsage)
	fs.StringVar(&f.peers, "peers", "", "reference peers to measure beside Go: auto (every one installed) or a `list` of "+peers.Names()+"; curl plays the transfers and h2load the small requests against each server and against Go's")
	f.browser.register(fs)
	fs.ClientKnobs(&m.Client)
	knobDefaults(fs)
	fs.ServerKnobs("server-", &f.xo.Server)
	// Help says the defaults the experiment fills in for a field left zero.
	fs.ShowDefaults(map[string]any{"duration": defaults.RunDuration, "rep-timeout": defaults.MatrixTimeout, "repeat": defaults.RunRepeat, "max-repeat": defaults.RunMaxRepeat, "budget": defaults.RunBudget})
	fs.AllowZero("warmup", "the default")
	fs.ZeroIsNone("budget", "no bound")
	fs.ZeroIsNone("omit", "none")
	fs.ZeroIsNone("loss-events", "size by --duration")
	// The experiment's fields (Matrix.Repeat is Repeat), and run --go's.
	fs.Fields(map[string]string{"Repeat": "repeat", "MaxRepeat": "max-repeat", "Rounds": "repeat", "MaxRounds": "max-repeat",
		"Duration": "duration", "Warmup": "warmup", "Omit": "omit", "Timeout": "rep-timeout", "Size": "size", "LossEvents": "loss-events",
		"Protocols": "protocols", "Scenarios": "scenarios", "Budget": "budget", "Precision": "precision", "Target.Plain": "target", "Target.TLS": "tls-target", "Target.ServerName": "sni", "AA": "aa", "Engine": "engine", "Peers": "peers"})
	fs.Group("what to measure", "protocols", "scenarios", "request", "requests", "body", "slo", "in-flight", "H", "target", "tls-target", "grpc-target", "k", "cacert", "sni", "no-server-stats", "peers")
	fs.Group("how long", "quick", "ci", "repeat", "max-repeat", "budget", "precision", "duration", "warmup", "omit", "loss-events", "size", "rep-timeout", "pin", "aa", "seed")
	fs.Group("the link (across emulated network conditions)", "net")
	fs.Group("client knobs (Go as shipped unless set)", "knobs", "engine", "read-size", "dial-timeout", "h2-max-frame", "h2-conn-window", "h2-stream-window", "quic-conn-window", "quic-stream-window", "quic-trace")
	fs.Group("server knobs (the child server)", "server-write-size", "server-h2-max-frame", "server-h2-conn-window", "server-h2-stream-window", "server-h2-max-streams", "server-quic-conn-window", "server-quic-stream-window", "server-quic-trace")
	fs.Group("other clients and toolchains", "go", "browser", "chromium", "page")
	fs.Group("output", "format", "detail", "json", "out", "no-files", "profile", "profile-span")
}

// knobsUsage is the --knobs flag's help: the named sets and what tuned
// sets, as internal/knobs has them.
var knobsUsage = "settings to start from: " + knobs.GoDefault.Name + " (Go as shipped: zero-valued net/http and quic-go types, io.Copy(io.Discard, body)), " +
	knobs.Tuned.Name + " (httpvs's " + knobs.Value(knobs.Tuned, "Client.ReadSize") + " reads and writes, " + knobs.Value(knobs.Tuned, "Client.HTTP2.MaxReadFrameSize") + " HTTP/2 frames), or a `file` written by tune --write; flags given explicitly override it"

// loadKnobSet reads --knobs: a named set or a knob file (knobs.Load),
// its engine's name checked against the load engines.
func loadKnobSet(arg string) (results.KnobSet, error) {
	s, err := knobs.Load(arg)
	if err == nil {
		var c config.Client
		var srv config.Server
		var e load.Engine
		err = knobs.Setup{Client: &c, Server: &srv, Engine: &e}.Apply(s.Knobs...)
	}
	var pe *os.PathError
	switch {
	case errors.As(err, &pe):
		return s, usagef("--knobs %q: want go-default, tuned, or a file written by httpvs tune --write (%v)", arg, err)
	case err != nil:
		return s, usagef("--knobs %s: %v", arg, err)
	}
	return s, nil
}

// knobsOver returns the knobs of s that the flags given (set) leave to
// it, which the experiment applies, once, and the results record: a
// knob whose flag was given is left out (explicit flags win), and named
// in the set's name. A knob no flag of this command sets is refused.
func knobsOver(fs *flagset.Set, s results.KnobSet, set map[string]bool) (results.KnobSet, error) {
	applied := results.KnobSet{Name: s.Name}
	var overridden []string
	for _, k := range s.Knobs {
		name, ok := fs.FlagFor(k.Field)
		switch {
		case !ok:
			return applied, usagef("--knobs %s: %s is not a setting of this command", s.Name, k.Field)
		case set[name]:
			overridden = append(overridden, flagset.Dash(name))
			continue
		}
		applied.Knobs = append(applied.Knobs, k)
	}
	if len(overridden) > 0 {
		applied.Name = fmt.Sprintf("%s, with %s", s.Name, strings.Join(overridden, " "))
	}
	return applied, nil
}

// knobDefaults says, in the help of a command that starts from a knob set
// (--knobs), the defaults it really uses: the set's, Go's as shipped
// unless another is named, not the transport package's own.
func knobDefaults(fs *flagset.Set) {
	read, frame := "Client.ReadSize", "Client.HTTP2.MaxReadFrameSize"
	fs.Lookup("read-size").Usage = "client body read buffer `size` (default: the --knobs set's; go-default reads as io.Copy(io.Discard, body) does, " +
		knobs.Value(knobs.GoDefault, read) + " at a time; tuned " + knobs.Value(knobs.Tuned, read) + ")"
	fs.Lookup("h2-max-frame").Usage = "HTTP/2 SETTINGS_MAX_FRAME_SIZE the client advertises, `size` 16Ki..16Mi-1 (default: the --knobs set's; go-default Go's " +
		knobs.Value(knobs.GoDefault, frame) + ", tuned " + knobs.Value(knobs.Tuned, frame) + ")"
	// The windows a knob file from tune --write may set (tune.Best's
	// fields); the named sets leave them to Go and quic-go, whose
	// defaults their help says (flagset.ClientKnobs).
	for _, name := range []string{"h2-stream-window", "quic-stream-window", "quic-conn-window"} {
		f := fs.Lookup(name)
		f.Usage = strings.TrimSuffix(f.Usage, ")") + ", unless a --knobs file sets it)"
	}
}
