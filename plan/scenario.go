// Package plan is what a run measures and against what: the scenarios
// (workloads, each traceable to a public experiment), the target, the
// matrix's options and its progress.
// experiment.Run takes them; the machinery that measures them is
// internal.
package plan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

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

	// x is how it is measured (internal/scenariospec).
	x scenariospec.Spec
}

func init() {
	scenariospec.Of = func(s any) *scenariospec.Spec { return &s.(*Scenario).x }
}

// pageConns is how many HTTP/1.1 connections page-load opens at most per
// host; the page-load scenario's Streams.
const pageConns = 6

// ginBody is the gin post's request body: the decimal numbers 0 to 9999
// written one after another, 38,890 bytes ("a ~39 KB body").
const ginBody = 38890

// Scenarios is the default matrix's workloads, in report order.
var Scenarios = []Scenario{
	{Name: "download", Reproduces: "golang/go#47840", Metric: results.MetricBytesPerSecond,
		Description: "one big download on one stream",
		x:           scenariospec.Spec{Streams: 1}},
	{Name: "download-parallel-10", Reproduces: "the golang/go#47840 fork with I/O statistics and parallel downloads", Metric: results.MetricBytesPerSecond,
		Description: "10 downloads at once (h1: 10 connections; h2, h3: 10 streams on one)",
		x:           scenariospec.Spec{Streams: 10}},
	{Name: "download-parallel-100", Reproduces: "the golang/go#47840 fork with I/O statistics and parallel downloads", Metric: results.MetricBytesPerSecond,
		Description: "100 downloads at once (h1: 100 connections; h2, h3: 100 streams on one)",
		x:           scenariospec.Spec{Streams: 100}},
	{Name: "upload", Reproduces: "golang/go#47840", Metric: results.MetricBytesPerSecond,
		Description: "one big upload on one stream",
		x:           scenariospec.Spec{Streams: 1, Upload: true}},
	{Name: "small-sequential", Reproduces: "the gonuget benchmark", Metric: results.MetricRequestsPerSecond,
		Description: "GET /small (2 bytes), one request at a time",
		x: scenariospec.Spec{Streams: 1,
			Path: "/small", Method: "GET"}},
	{Name: "small-concurrent", Reproduces: "the gonuget benchmark, the gin post", Metric: results.MetricRequestsPerSecond,
		Description: "GET /small, 50 at a time (h1: 50 connections; h2, h3: 50 streams on one)",
		x: scenariospec.Spec{Streams: 50,
			Path: "/small", Method: "GET"}},
	{Name: "headers-body", Reproduces: "the gin post", Metric: results.MetricRequestsPerSecond,
		Description: "POST /echo with a 38,890-byte body and 100 headers of 100 characters, 50 at a time",
		x: scenariospec.Spec{Streams: 50,
			Path: "/echo", Method: "POST", Body: ginBody, Headers: load.HeaderSpec{Count: 100, Len: 100}}},
	{Name: "grpc-1", Reproduces: "the gRPC ServeHTTP post", Metric: results.MetricRequestsPerSecond,
		Description: "gRPC GetBook one at a time: h1 JSON, h2c/h2 grpc ServeHTTP, grpc-native grpc-go's own server",
		x:           scenariospec.Spec{Streams: 1, RPC: true}},
	{Name: "grpc-50", Reproduces: "the gRPC ServeHTTP post", Metric: results.MetricRequestsPerSecond,
		Description: "gRPC GetBook 50 at a time (h1: 50 connections; gRPC: 50 streams on one)",
		x:           scenariospec.Spec{Streams: 50, RPC: true}},
}

// netScenarios are the workloads where the network decides: handshakes,
// many objects at once, head-of-line blocking. They are not in "all" (the
// default matrix on loopback) but are in NetDefault, and --scenarios
// takes them by name or as the group "net".
var netScenarios = []Scenario{
	{Name: "cold-start", Reproduces: "RFC 9000 and RFC 8446 handshake round trips", Metric: results.MetricSeconds,
		Description: "GET /small on a brand-new connection each time: connect, TLS, first byte; the connection closed after",
		x:           scenariospec.Spec{Streams: 1, Path: "/small", Method: "GET", Kind: scenariospec.KindColdStart}},
	{Name: "cold-start-resumed", Reproduces: "RFC 8446 resumption, RFC 9001 0-RTT", Metric: results.MetricSeconds,
		Description: "cold-start resuming a TLS session (h1-tls, h2) or with 0-RTT (h3); h1 and h2c as cold-start",
		x:           scenariospec.Spec{Streams: 1, Path: "/small", Method: "GET", Kind: scenariospec.KindColdStart, Resume: true}},
	{Name: "page-load", Reproduces: "the HTTP Archive median page", Metric: results.MetricSeconds,
		Description: "a 50-object page (HTTP Archive median mix) on fresh connections: the document, then the rest at once (h1: 6 connections; h2, h3: 1)",
		x:           scenariospec.Spec{Streams: pageConns, Path: "/small", Method: "GET", Kind: scenariospec.KindPageLoad}},
	{Name: "head-of-line", Reproduces: "Langley et al., SIGCOMM 2017", Metric: results.MetricSeconds,
		Description: "GET /small one at a time beside a bulk download (h2, h3: on its connection; h1: on a second one)",
		x:           scenariospec.Spec{Streams: 2, Path: "/small", Method: "GET", Kind: scenariospec.KindHeadOfLine}},
}

// netDrops are the default scenarios NetDefault leaves out: the parallel
// downloads move at least 10 MiB per transport (minutes on a slow link),
// and headers-body and gRPC measure per-request CPU, which a link only
// hides behind its round trips. --scenarios still selects them.
var netDrops = map[string]bool{"download-parallel-10": true, "download-parallel-100": true, "headers-body": true, "grpc-1": true, "grpc-50": true}

// NetDefault is the default matrix across an emulated link: one download,
// one upload, small requests one and fifty at a time, then netScenarios.
func NetDefault() []Scenario {
	var out []Scenario
	for _, s := range Scenarios {
		if !netDrops[s.Name] {
			out = append(out, s)
		}
	}
	return append(out, netScenarios...)
}

// groups are names --scenarios takes for several scenarios at once.
var groups = map[string][]string{
	"download-parallel": {"download-parallel-10", "download-parallel-100"},
	"grpc":              {"grpc-1", "grpc-50"},
	"net":               {"cold-start", "cold-start-resumed", "page-load", "head-of-line"},
}

// ScenarioNames lists every scenario name and group, for messages.
func ScenarioNames() string {
	names := make([]string, 0, len(Scenarios)+len(netScenarios)+len(groups))
	for _, s := range everyScenario() {
		names = append(names, s.Name)
	}
	names = append(names, "download-parallel", "grpc", "net")
	return strings.Join(names, ", ")
}

// everyScenario is Scenarios then netScenarios, in report order.
func everyScenario() []Scenario {
	return append(append([]Scenario(nil), Scenarios...), netScenarios...)
}

// ParseScenarios reads a comma-separated list of scenario names (or
// "all", the default matrix Scenarios), keeping report order (Scenarios,
// then netScenarios) and dropping repeats.
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

// requestConcurrency is how many of a user's request the concurrent
// scenario measuring it keeps in flight ("request-1-x50").
const requestConcurrency = 50

// RequestScenarios are the scenarios measuring reqs: for the i-th
// (1-based) "request-i", one request at a time, and "request-i-x50",
// requestConcurrency at a time, as small-sequential and small-concurrent
// measure httpvs's own /small.
func RequestScenarios(reqs []results.Request) []Scenario {
	var out []Scenario
	for i := range reqs {
		req := &reqs[i]
		one := Scenario{Name: "request-" + strconv.Itoa(i+1), Reproduces: "your request", Metric: results.MetricRequestsPerSecond,
			Description: req.String() + ", one at a time",
			x:           scenariospec.Spec{Streams: 1, Path: req.Path, Method: req.Method, Body: units.Bytes(req.BodyBytes), Req: req}}
		many := one
		many.Name = fmt.Sprintf("%s-x%d", one.Name, requestConcurrency)
		many.Description = fmt.Sprintf("%s, %d at a time (h1: %d connections; h2, h3: %d streams on one)", req, requestConcurrency, requestConcurrency, requestConcurrency)
		many.x.Streams = requestConcurrency
		out = append(out, one, many)
	}
	return out
}
