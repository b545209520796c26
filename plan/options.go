package plan

import (
	"crypto/x509"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/fielderr"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
	"github.com/httpvs/httpvs/webpage"
)

// Target is the server a run measures.
type Target struct {
	// Plain is the base URL for h1 and h2c, e.g. http://127.0.0.1:8080;
	// empty skips them. The experiment drops a trailing slash.
	Plain string
	// TLS is the base URL for h1-tls, h2 and h3 (UDP on the same port),
	// e.g. https://127.0.0.1:8443; empty skips them. The experiment drops
	// a trailing slash.
	TLS string
	// RootCAs are trusted for TLS; nil means the system's.
	RootCAs *x509.CertPool
	// Insecure skips certificate verification.
	Insecure bool
	// ServerName is the TLS server name sent (SNI) and verified over
	// h1-tls, h2 and h3. Empty: TLS's host; when that is an IP address,
	// for which TLS sends no name, the experiment learns the first DNS
	// name of the certificate the server presents over TCP, uses it for
	// every TLS transport and says so (results Settings.ServerName).
	ServerName string
	// GRPC is host:port of a native gRPC server of the gRPC ServeHTTP post's Bookstore
	// (httpvs serve --grpc-listen); empty skips the grpc-native column.
	GRPC string
}

// Options describe a run.
type Options struct {
	Protocols []transport.Protocol // transports, columns of the report
	Scenarios []Scenario           // workloads, in order
	// Repeat is the number of repetitions per cell; zero means 8.
	Repeat int
	// Duration is each load repetition's measured time and, when Size is
	// zero, the time each transfer repetition is sized to take; zero means
	// 100 ms.
	Duration time.Duration
	// Warmup runs before each load repetition; zero means Duration/4.
	Warmup time.Duration
	// MaxRepeat is the most rounds a cell may get: after Repeat rounds of
	// every scenario, rounds are added one at a time to the scenarios
	// whose cells' verdicts are still open (undetermined), the closest to
	// deciding first, until each is decided or has MaxRepeat rounds, or
	// Budget is spent; a round measures the baseline and the scenario's
	// open cells. Each cell's interval is then results.Sequential's,
	// looks after rounds Repeat to MaxRepeat, which holds however the
	// rounds stop. Zero means Repeat: no added rounds.
	MaxRepeat int
	// Precision, when set (0.01 to 0.5), plans the rounds past Repeat for
	// precision instead: each cell's, once, from its first Repeat rounds'
	// spread alone, to bring its interval within ±Precision (0.10: ±10%)
	// whatever its verdict (Stein's two-stage procedure,
	// verdict.RoundsBySpread). Zero: rounds go to the open verdicts.
	Precision float64
	// Size fixes each transfer cell's total body size (split across its
	// streams); zero sizes it per transport from a probe of Duration/2.
	Size units.Bytes
	// Client is the client's tuning, the same for every cell.
	Client config.Client
	// Knobs names the knob set Client (and the caller's server) started
	// from and the values it set; the results record it.
	Knobs results.KnobSet
	// Alongside, if set, is a second knob set whose client knobs measure
	// each single-stream transfer again, every transport, as a variant
	// scenario ("download:tuned", variant.go): Go as shipped beside the
	// best known settings in one run.
	Alongside *results.KnobSet
	// Engine is the load engine of the request scenarios (load.Std, the
	// zero value, or load.Fast; both speak every transport). Let it hold
	// Ps only when Target is another process.
	Engine load.Engine
	// Timeout bounds each repetition; zero means 2 minutes, or
	// across a lossy link twice the longest transfer expected, if longer.
	Timeout time.Duration
	// LossEvents is how many loss events each transfer across a lossy
	// link is sized to see (its steady part carries LossEvents / loss
	// packets), at most 100000; zero means 100, negative
	// none (transfers sized by Duration alone).
	LossEvents int
	// Header holds extra request headers sent with every request of the
	// transfer and request scenarios, probes included (a target that wants
	// credentials, say), but not with gRPC calls or the emulated link's
	// cold-start, page-load and head-of-line requests; the results record
	// their names, not their values.
	Header http.Header
	// NoServerStats, when set, leaves the server's counters unread: no
	// GET /stats before and after each repetition (a request to a target
	// its owner did not ask for), and no server figures but its CPU,
	// which a target on this machine's loopback has read from /proc.
	NoServerStats bool
	// Omit is how much of each transfer's start its rate leaves out, as
	// iperf3's --omit: zero means, across a link, its handshakes and slow
	// start (none on loopback); negative means none.
	Omit time.Duration
	// Seed draws each round's column order; zero means one from the
	// clock. The results record the seed used (Settings.Seed).
	Seed uint64
	// WarmupRounds is how many rounds of each scenario run first and are
	// discarded: the first transfers and requests after a scenario's
	// probes pay for connection set-up and cold caches. Zero means
	// 1; negative means none.
	WarmupRounds int
	// AA names the scenarios that measure the baseline transport a second
	// time, as a column of its own under the same rounds and order rules
	// (verdict.AAColumn): the run's noise floor, in Results.AA. AAAll
	// names every scenario; nil names none.
	AA []string
	// Progress, if set, is called before each measurement.
	Progress func(Progress)
	// ProfileSpan is how long each profiling round lasts at least: a
	// profile sampled at 100 Hz holds about 100 samples per second of one
	// busy core. Zero: 2 s.
	ProfileSpan time.Duration
	// Browser, if set, loads the target's page in a real browser after
	// the cells, each transport's loads held against page-load's model
	// (Results.Browser).
	Browser *BrowserOptions
}

// Progress is where a run is.
type Progress struct {
	Scenario   string
	Protocol   string
	Repetition int           // 1-based
	Warmup     bool          // a warm-up round's, discarded
	Done       int           // measurements finished
	Total      int           // measurements in all (skipped cells excluded once known)
	Elapsed    time.Duration // since the run started
	Remaining  time.Duration // estimate from the pace so far; zero before the first measurement
}

// AAAll in Options.AA gives every scenario an A/A column.
const AAAll = "all"

// AAEachKind in Options.AA gives an A/A column to the first scenario of
// each kind of work measured (verdict.KindOf: a transfer, a request load,
// gRPC, a timed scenario): each kind's noise floor at the cost of one
// column in one scenario per kind.
const AAEachKind = "each-kind"

// Validate reports the first field of o out of range as a
// *config.FieldError (the client's under "Client."); zero fields are
// accepted where fill gives them defaults.
func (o Options) Validate() error {
	if err := o.checkRounds(); err != nil {
		return err
	}
	switch {
	case o.Duration != 0 && (o.Duration < 10*time.Millisecond || o.Duration > time.Hour):
		return fielderr.New("Duration", o.Duration, "10ms to 1h per repetition")
	case o.Warmup < 0:
		return fielderr.New("Warmup", o.Warmup, "zero or more")
	case o.Omit > time.Hour:
		return fielderr.New("Omit", o.Omit, "up to 1h, 0 for the link's own, or negative for none")
	case o.Size < 0:
		return fielderr.New("Size", o.Size, "zero (sized by a probe) or more")
	case o.Timeout < 0:
		return fielderr.New("Timeout", o.Timeout, "a positive duration, or 0 for the default")
	case len(o.Protocols) == 0:
		return fielderr.New("Protocols", "none", "at least one transport")
	case len(o.Scenarios) == 0:
		return fielderr.New("Scenarios", "none", "at least one scenario")
	}
	return fielderr.Within("Client", o.Client.Validate())
}

// checkRounds refuses the fields that decide the rounds out of range:
// Repeat, MaxRepeat, Precision, the A/A columns and LossEvents.
func (o Options) checkRounds() error {
	switch {
	case o.Repeat < 0 || o.Repeat > 100:
		return fielderr.New("Repeat", o.Repeat, "1 to 100")
	case o.MaxRepeat != 0 && (o.MaxRepeat < max(o.Repeat, 1) || o.MaxRepeat > 100):
		return fielderr.New("MaxRepeat", o.MaxRepeat, "Repeat to 100, or 0 for Repeat")
	case o.Precision != 0 && (o.Precision < minPrecision || o.Precision > maxPrecision):
		return fielderr.New("Precision", o.Precision, "a half-width from 1%% to 50%% (0.01 to 0.5; 0.10 plans every cell to ±10%%), or 0 for rounds to open verdicts")
	case o.LossEvents > maxLossEvents:
		return fielderr.New("LossEvents", o.LossEvents, "at most %d", maxLossEvents)
	}
	for _, name := range o.AA {
		if name != AAAll && name != AAEachKind && !slices.ContainsFunc(o.Scenarios, func(sc Scenario) bool { return sc.Name == name }) {
			return fielderr.New("AA", strings.Join(o.AA, ","), "scenarios among those measured (%s is not), %s or %s", name, AAAll, AAEachKind)
		}
	}
	return nil
}

// Profiles are CPU profiles in pprof's format taken over one span: the
// client's (this process) and the server's; nil where none was taken.
type Profiles struct {
	Client, Server []byte
}

// Estimate is what a run will cost, worked out before it starts from its
// options and, across a link, the link's round trip and goodput.
type Estimate struct {
	Cells  int // cells to measure: scenarios (variants included) times their columns
	Rounds int // the most first rounds a cell gets: Options.Repeat, unless every scenario gets fewer
	// Fewest is the first rounds of the cells that get fewest: below
	// Rounds when the user's slow requests or a variant get fewer; zero
	// for an estimate of no cells.
	Fewest int
	// MaxRounds is the most a noisy cell may get (Options.MaxRepeat).
	MaxRounds int
	// Time is the expected time of every cell's first Rounds rounds, their
	// checks and warm-up rounds included; added rounds come on top, within
	// Options.Budget.
	Time time.Duration
}

// BrowserOptions ask Run to load the target's page (GET /page/, httpvs
// serve's) in a real browser too, after the cells, over each transport a
// browser speaks (h1, h1-tls, h2, h3; not h2c), with a fresh browser for
// each load, and to hold each transport's load times against page-load's
// model (Results.Browser). The zero value runs the first browser.Find
// finds, 5 loads a transport, where the run's client
// is.
type BrowserOptions struct {
	// Path is the browser's executable; empty means browser.Find's.
	Path string
	// Rounds is how many loads each transport gets, the transports in
	// turn each round; zero means 5.
	Rounds int
	// Start starts each browser's process in the run's client network:
	// nil means Options.Network's own Start method when it has one (an
	// emulated link's client namespace has), else this process's network.
	Start func(cmd *exec.Cmd) error
	// Page is the page the target serves, when it is not page-load's
	// (httpvs serve --page); nil means page-load's page, webpage.Median.
	// A browser loading another page than the model's is not compared
	// with it.
	Page *webpage.Page
}

// maxLossEvents bounds Options.LossEvents: at 1% loss, 100000 events are
// ten million packets per transfer, hours across a slow link.
const maxLossEvents = 100000

// minPrecision and maxPrecision bound Options.Precision: a half-width
// under 1% asks for more rounds than a cell gets, one over 50% says
// nothing a verdict would not.
const (
	minPrecision = 0.01
	maxPrecision = 0.5
)
