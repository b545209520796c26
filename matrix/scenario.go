// Package matrix runs httpvs's whole comparison: workloads (scenarios, each
// traceable to one of the user's seed documents) times transports, each cell
// repeated, against a payload server the caller started or named. It returns
// Results, the content of results.json: every repetition of every cell, the
// environment and every knob in effect. It never prints; renderers live in
// package report.
package matrix

import (
	"fmt"
	"strings"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/units"
)

// Metric names: what a cell's Value measures. The per-second metrics are
// higher-is-better, MetricSeconds lower-is-better (LowerIsBetter).
const (
	MetricBytesPerSecond    = "bytes_per_second"    // body bytes moved per second, all streams
	MetricRequestsPerSecond = "requests_per_second" // completed requests per second
	// MetricSeconds is a time, in seconds, of the scenario's unit of work
	// (a cold request, a page load, a small request beside a download):
	// the median over the repetition.
	MetricSeconds = "seconds"
)

// LowerIsBetter reports whether a smaller Value of metric is better.
func LowerIsBetter(metric string) bool { return metric == MetricSeconds }

// Scenario is one workload of the matrix.
type Scenario struct {
	// Name is what --scenarios takes and what each cell carries.
	Name string
	// Reproduces names the public experiments or sources it follows, e.g.
	// "golang/go#47840", as users can look them up.
	Reproduces string
	// Description says what it does, in one line.
	Description string
	// Metric is MetricBytesPerSecond (transfers) or MetricRequestsPerSecond.
	Metric string

	upload  bool        // transfers: PUT to /sink instead of GET /bytes
	streams int         // transfers: how many at once; load: how many requests in flight
	path    string      // load: the request path
	method  string      // load: the request method
	body    units.Bytes // load: request body size
	headers load.HeaderSpec
	rpc     bool // the gRPC ServeHTTP post's GetBook, one binding per column
	kind    kind // how it is measured
	resume  bool // cold-start: resume TLS sessions, 0-RTT over h3
	// knobs names the knob set of a variant scenario (variant.go), and
	// client is its client's configuration; "" and nil for the others.
	knobs  string
	client *config.Client
	// req is the user's own request a scenario of RequestScenarios
	// measures, with its body and headers; nil for httpvs's endpoints.
	req *Request
}

// User reports whether s measures one of the user's own requests
// (RequestScenarios) rather than httpvs's endpoints.
func (s Scenario) User() bool { return s.req != nil }

// kind is how a scenario is measured: the transfer or load engines, or one
// of the network scenarios of this package.
type kind int

const (
	kindEngine     kind = iota // transfer or load, by Metric
	kindColdStart              // coldstart.go
	kindPageLoad               // pageload.go
	kindHeadOfLine             // headofline.go
)

// Transfer reports whether s moves big bodies (transfer package) rather
// than many requests (load package) or is a network scenario.
func (s Scenario) Transfer() bool { return s.Metric == MetricBytesPerSecond }

// Streams is the number of transfers or requests s keeps in flight.
func (s Scenario) Streams() int { return s.streams }

// seed004Body is the gin post's request body: the decimal numbers 0 to 9999
// written one after another, 38,890 bytes ("a ~39 KB body").
const seed004Body = 38890

// Scenarios is the default matrix's workloads, in report order.
var Scenarios = []Scenario{
	{Name: "download", Reproduces: "golang/go#47840", Metric: MetricBytesPerSecond, streams: 1,
		Description: "one big download on one stream"},
	{Name: "download-parallel-10", Reproduces: "the golang/go#47840 fork with I/O statistics and parallel downloads", Metric: MetricBytesPerSecond, streams: 10,
		Description: "10 downloads at once (h1: 10 connections; h2, h3: 10 streams on one)"},
	{Name: "download-parallel-100", Reproduces: "the golang/go#47840 fork with I/O statistics and parallel downloads", Metric: MetricBytesPerSecond, streams: 100,
		Description: "100 downloads at once (h1: 100 connections; h2, h3: 100 streams on one)"},
	{Name: "upload", Reproduces: "golang/go#47840", Metric: MetricBytesPerSecond, streams: 1, upload: true,
		Description: "one big upload on one stream"},
	{Name: "small-sequential", Reproduces: "the gonuget benchmark", Metric: MetricRequestsPerSecond, streams: 1,
		path: "/small", method: "GET",
		Description: "GET /small (2 bytes), one request at a time"},
	{Name: "small-concurrent", Reproduces: "the gonuget benchmark, the gin post", Metric: MetricRequestsPerSecond, streams: 50,
		path: "/small", method: "GET",
		Description: "GET /small, 50 at a time (h1: 50 connections; h2, h3: 50 streams on one)"},
	{Name: "headers-body", Reproduces: "the gin post", Metric: MetricRequestsPerSecond, streams: 50,
		path: "/echo", method: "POST", body: seed004Body, headers: load.HeaderSpec{Count: 100, Len: 100},
		Description: "POST /echo with a 38,890-byte body and 100 headers of 100 characters, 50 at a time"},
	{Name: "grpc-1", Reproduces: "the gRPC ServeHTTP post", Metric: MetricRequestsPerSecond, streams: 1, rpc: true,
		Description: "gRPC GetBook one at a time: h1 JSON, h2c/h2 grpc ServeHTTP, grpc-native grpc-go's own server"},
	{Name: "grpc-50", Reproduces: "the gRPC ServeHTTP post", Metric: MetricRequestsPerSecond, streams: 50, rpc: true,
		Description: "gRPC GetBook 50 at a time (h1: 50 connections; gRPC: 50 streams on one)"},
}

// NetScenarios are the workloads where the network decides: handshakes,
// many objects at once, head-of-line blocking. They are not in "all" (the
// default matrix on loopback) but are in NetDefault, and --scenarios
// takes them by name or as the group "net".
var NetScenarios = []Scenario{
	{Name: "cold-start", Reproduces: "RFC 9000 and RFC 8446 handshake round trips", Metric: MetricSeconds, streams: 1, path: "/small", method: "GET", kind: kindColdStart,
		Description: "GET /small on a brand-new connection each time: connect, TLS, first byte; the connection closed after"},
	{Name: "cold-start-resumed", Reproduces: "RFC 8446 resumption, RFC 9001 0-RTT", Metric: MetricSeconds, streams: 1, path: "/small", method: "GET", kind: kindColdStart, resume: true,
		Description: "cold-start resuming a TLS session (h1-tls, h2) or with 0-RTT (h3); h1 and h2c as cold-start"},
	{Name: "page-load", Reproduces: "the HTTP Archive median page", Metric: MetricSeconds, streams: pageConns, path: "/small", method: "GET", kind: kindPageLoad,
		Description: "a 50-object page (HTTP Archive median mix) on fresh connections: the document, then the rest at once (h1: 6 connections; h2, h3: 1)"},
	{Name: "head-of-line", Reproduces: "Langley et al., SIGCOMM 2017", Metric: MetricSeconds, streams: 2, path: "/small", method: "GET", kind: kindHeadOfLine,
		Description: "GET /small one at a time beside a bulk download (h2, h3: on its connection; h1: on a second one)"},
}

// netDrops are the default scenarios NetDefault leaves out: the parallel
// downloads move at least 10 MiB per transport (minutes on a slow link),
// and headers-body and gRPC measure per-request CPU, which a link only
// hides behind its round trips. --scenarios still selects them.
var netDrops = map[string]bool{"download-parallel-10": true, "download-parallel-100": true, "headers-body": true, "grpc-1": true, "grpc-50": true}

// NetDefault is the default matrix across an emulated link: one download,
// one upload, small requests one and fifty at a time, then NetScenarios.
func NetDefault() []Scenario {
	var out []Scenario
	for _, s := range Scenarios {
		if !netDrops[s.Name] {
			out = append(out, s)
		}
	}
	return append(out, NetScenarios...)
}

// groups are names --scenarios takes for several scenarios at once.
var groups = map[string][]string{
	"download-parallel": {"download-parallel-10", "download-parallel-100"},
	"grpc":              {"grpc-1", "grpc-50"},
	"net":               {"cold-start", "cold-start-resumed", "page-load", "head-of-line"},
}

// ScenarioNames lists every scenario name and group, for messages.
func ScenarioNames() string {
	names := make([]string, 0, len(Scenarios)+len(NetScenarios)+len(groups))
	for _, s := range everyScenario() {
		names = append(names, s.Name)
	}
	names = append(names, "download-parallel", "grpc", "net")
	return strings.Join(names, ", ")
}

// everyScenario is Scenarios then NetScenarios, in report order.
func everyScenario() []Scenario {
	return append(append([]Scenario(nil), Scenarios...), NetScenarios...)
}

// ParseScenarios reads a comma-separated list of scenario names (or
// "all", the default matrix Scenarios), keeping report order (Scenarios,
// then NetScenarios) and dropping repeats.
func ParseScenarios(list string) ([]Scenario, error) {
	want := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		switch {
		case name == "all":
			for _, s := range Scenarios {
				want[s.Name] = true
			}
		case groups[name] != nil:
			for _, n := range groups[name] {
				want[n] = true
			}
		default:
			if _, ok := scenarioByName(name); !ok {
				return nil, fmt.Errorf("unknown scenario %q: want all or a comma-separated list of %s", name, ScenarioNames())
			}
			want[name] = true
		}
	}
	var out []Scenario
	for _, s := range everyScenario() {
		if want[s.Name] {
			out = append(out, s)
		}
	}
	return out, nil
}

// ScenarioByName returns the scenario called name, a variant's too
// ("download:tuned", without its client configuration).
func ScenarioByName(name string) (Scenario, bool) {
	if s, ok := scenarioByName(name); ok {
		return s, true
	}
	return variantByName(name)
}

// scenarioByName returns the scenario of the matrix called name (not a
// variant: those follow their base scenario).
func scenarioByName(name string) (Scenario, bool) {
	for _, s := range everyScenario() {
		if s.Name == name {
			return s, true
		}
	}
	return Scenario{}, false
}
