package cli

import (
	"fmt"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/matrix"
	"github.com/httpvs/httpvs/internal/peers"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/units"
)

// runFlags are httpvs run's flags.
type runFlags struct {
	protocols, scenarios string
	size                 units.Bytes
	duration, warmup     time.Duration
	omit                 time.Duration
	budgetGiven          bool
	timeout              time.Duration
	repeat, maxRepeat    int
	precision            string // --precision: a half-width every cell is planned to, "10%"
	lossEvents           int    // --loss-events
	budget               time.Duration
	quick                bool
	engine               string
	format               string
	out                  string
	noFiles              bool
	profile              string
	profileSpan          time.Duration // --profile-span: each profiling round's least length
	target, tlsTarget    string
	grpcTarget           string
	insecure             bool
	cacert               string
	header               flagset.Header
	knobs                string
	asJSON               bool
	peers                string                // --peers, as given
	peerList             []string              // --peers' installed peers
	peersMissing         []string              // --peers' peers not installed, with their packages
	net                  flagset.Strings       // --net, as given: one link each, run in order
	browser              browserFlags          // --browser, --chromium, --page
	nets                 []experiment.LinkSpec // --net's link profiles, one per run
	goList               string                // --go: Go toolchains to compare (goversions.go)
	client               config.Client
	server               config.Server
	requests             requestFlags // --request, --requests, --body
	noise                noiseFlags   // --pin, --aa, --seed
	slo                  string       // --slo: a capacity search instead of the matrix (slo.go)
	noServerStats        bool         // --no-server-stats: leave a target's /stats unread
	saidUDP              string       // the UDP buffer warning a report on stdout said already: a sweep says it once
}

// quickTakes is how long run --quick takes on loopback: its plan
// (matrix.EstimateRun of experiment.Quick, 8.4 s of cells for the default
// matrix) and the child's start; bench/quick.sh measures it. A test keeps
// it within a few seconds of the plan.
const quickTakes = "about 10 s on a quiet 2-core machine, longer under load"

func (f *runFlags) register(fs *flagset.Set) {
	fs.StringVar(&f.protocols, "protocols", "all", "comma-separated transports (h1, h2c, h1-tls, h2, h3) or all")
	fs.Alias("protocols", "protocol")
	fs.Alias("protocols", "p")
	fs.StringVar(&f.scenarios, "scenarios", "all", "comma-separated scenarios ("+plan.ScenarioNames()+", "+matrix.RequestGroup+": your --request and --requests) or all (the default matrix; with --net: all but download-parallel-100, and net; with --target and your requests: "+matrix.RequestGroup+" alone)")
	fs.Var(&f.size, "size", "fixed total body `size` of transfer cells, split across their streams (default: sized per transport to take --duration)")
	fs.DurationVar(&f.duration, "duration", defaults.MatrixDuration, fmt.Sprintf("measured time of each load repetition, and the time transfers are sized to take (with --net: %d round trips of the link, at least 100ms)", matrix.LinkWindowRTTs))
	fs.Alias("duration", "d")
	fs.DurationVar(&f.warmup, "warmup", 0, fmt.Sprintf("unmeasured time before each load repetition (default --duration/4; with --net at least %d round trips)", matrix.LinkWarmupRTTs))
	fs.DurationVar(&f.omit, "omit", 0, "leave each transfer's first `duration` out of its rate, as iperf3 --omit (default: none on loopback; with --net the link's handshakes and slow start, from its round trip and rate; 0: none)")
	fs.DurationVar(&f.timeout, "rep-timeout", defaults.MatrixTimeout, "bound on each repetition of a cell (with --net on a lossy link: at least twice the longest transfer expected, unless given)")
	fs.IntVar(&f.lossEvents, "loss-events", defaults.LossEvents, "with --net on a lossy link: size each transfer to see this many losses (losses/loss packets), so that a loss-limited controller's rate is its average, not where its window happened to be; the run says before it starts how long that takes; 0: size by --duration alone")
	fs.Renamed("timeout", "--timeout bounds one request in get, put and load; run's bound on each repetition is --rep-timeout")
	fs.IntVar(&f.repeat, "repeat", defaults.RunRepeat, fmt.Sprintf("rounds every cell gets, after a warm-up round; past them rounds go to the cells whose verdict is still undetermined, each stopping once decided (%d with --net)", defaults.LinkRepeat))
	fs.IntVar(&f.maxRepeat, "max-repeat", defaults.RunMaxRepeat, fmt.Sprintf("most rounds a cell gets: the last of the looks its interval is sized for (default %d; --repeat when that is given, and with --quick)", defaults.RunMaxRepeat))
	fs.DurationVar(&f.budget, "budget", defaults.RunBudget, fmt.Sprintf("the run ends within this `duration` of its start: the first rounds are fitted to it (each repetition cut to 50ms unless --duration is given, then the rounds to 3 at least; the run says so before it starts), and added rounds start only if they end within it (with --net: the first rounds' estimated time and %.0f%% of it again, printed before they start); 0: --max-repeat alone bounds them", 100*defaults.LinkBudgetShare))
	fs.StringVar(&f.precision, "precision", "", "plan the rounds past --repeat for precision instead: every cell's, from its first rounds' spread, to bring its interval within ±`pct` (10%), whatever its verdict (up to --max-repeat, within --budget; with --net this is the default)")
	f.noise.register(fs)
	fs.BoolVar(&f.quick, "quick", false, fmt.Sprintf("one %v repetition per cell (%s, for CI); explicit --repeat and --duration still apply", defaults.QuickDuration, quickTakes))
	fs.Field("Engine", "engine")
	fs.StringVar(&f.engine, "engine", load.Std.String(), "load engine for request scenarios: std (net/http and quic-go's http3, what your code uses) or fast (httpvs's lean h1/h2/h3 client)")
	fs.BoolVar(&f.asJSON, "json", false, "print results.json to stdout (same as --format json)")
	fs.StringVar(&f.format, "format", "text", "what to print: text (tables), markdown, json (results.json) or benchstat (Go benchmark format)")
	fs.StringVar(&f.out, "out", "httpvs-results", "`dir`ectory for <timestamp>/results.json, report.md, report.html and bench.txt")
	fs.BoolVar(&f.noFiles, "no-files", false, "print only; write no results directory")
	fs.StringVar(&f.profile, "profile", "", "profile the client and the child server in rounds of their own after the measured ones, for the baseline and each transfer or load cell slower than it, and say where each one's extra CPU went (also httpvs explain); the profiles go to `dir` (SCENARIO_TRANSPORT.{client,server}.{cpu,heap}.pprof, a variant's ':' as '+': download+tuned_h2)")
	fs.DurationVar(&f.profileSpan, "profile-span", defaults.ProfileSpan, "with --profile: the least each profiling round lasts; a profile holds about 100 samples per second of a busy core, and explain says when a side held too few to trust its shares")
	fs.StringVar(&f.target, "target", "", "measure this server's h1 and h2c instead of a child server: base `URL` http://host:port; with --request or --requests, those alone unless --scenarios names more")
	fs.StringVar(&f.tlsTarget, "tls-target", "", "measure this server's h1-tls, h2 and h3: base `URL` https://host:port")
	fs.StringVar(&f.grpcTarget, "grpc-target", "", "with --target or --tls-target: `host:port` of the server's native gRPC Bookstore (httpvs serve --grpc-listen) for the grpc-native column")
	fs.BoolVar(&f.insecure, "k", false, "with --tls-target: skip certificate verification")
	fs.Alias("k", "insecure")
	fs.BoolVar(&f.noServerStats, "no-server-stats", false, "with --target or --tls-target: do not read the target's GET /stats before and after each repetition (httpvs serve's counters: the server's CPU and its side of each cell); without it the run says up front that it reads them")
	fs.StringVar(&f.cacert, "cacert", "", "with --tls-target: trust the PEM certificates in `file`")
	fs.HeaderVar(&f.header)
	registerRequests(fs, &f.requests)
	fs.StringVar(&f.slo, "slo", "", sloUsage)
	fs.StringVar(&f.knobs, "knobs", defaultKnobs, knobsUsage)
	fs.Var(&f.net, "net", netFlagUsage(true))
	fs.StringVar(&f.goList, "go", "", goFlagUsage)
	fs.StringVar(&f.peers, "peers", "", "reference peers to measure beside Go: auto (every one installed) or a `list` of "+peers.Names()+"; curl plays the transfers and h2load the small requests against each server and against Go's")
	f.browser.register(fs)
	fs.ClientKnobs(&f.client)
	knobDefaults(fs)
	fs.ServerKnobs("server-", &f.server)
	fs.AllowZero("warmup", "the default")
	fs.AllowZero("budget", "no bound")
	fs.AllowZero("omit", "none")
	fs.AllowZero("loss-events", "size by --duration")
	// The experiment's fields (Matrix.Repeat is Repeat), and run --go's.
	fs.Fields(map[string]string{"Repeat": "repeat", "MaxRepeat": "max-repeat", "Rounds": "repeat", "MaxRounds": "max-repeat",
		"Duration": "duration", "Warmup": "warmup", "Omit": "omit", "Timeout": "rep-timeout", "Size": "size", "LossEvents": "loss-events",
		"Protocols": "protocols", "Scenarios": "scenarios", "Budget": "budget", "Precision": "precision", "Target.Plain": "target", "Target.TLS": "tls-target", "AA": "aa"})
	fs.Group("what to measure", "protocols", "scenarios", "request", "requests", "body", "slo", "H", "target", "tls-target", "grpc-target", "k", "cacert", "no-server-stats", "peers")
	fs.Group("how long", "quick", "repeat", "max-repeat", "budget", "precision", "duration", "warmup", "omit", "loss-events", "size", "rep-timeout", "pin", "aa", "seed")
	fs.Group("the link (across emulated network conditions)", "net")
	fs.Group("client knobs (Go as shipped unless set)", "knobs", "engine", "read-size", "dial-timeout", "h2-max-frame", "h2-conn-window", "h2-stream-window", "quic-conn-window", "quic-stream-window", "quic-trace")
	fs.Group("server knobs (the child server)", "server-write-size", "server-h2-max-frame", "server-h2-conn-window", "server-h2-stream-window", "server-h2-max-streams", "server-quic-conn-window", "server-quic-stream-window", "server-quic-trace")
	fs.Group("other clients and toolchains", "go", "browser", "chromium", "page")
	fs.Group("output", "format", "json", "out", "no-files", "profile", "profile-span")
}
