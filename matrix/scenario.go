// Package matrix measures httpvs's comparison: workloads (scenarios, each
// traceable to a public experiment) times transports, each cell repeated in
// rounds, against a payload server the caller started or named. It fills
// results.Results, the content of results.json, and holds the link's
// physics models its plans and package diagnosis share. It never prints;
// package experiment runs it with a server and a link and diagnoses what
// it returns, package report renders that.
package matrix

import (
	"fmt"
	"strings"
	"time"

	"github.com/httpvs/httpvs/config"
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
	req *results.Request
	// duration is a round's measured time when SizeRequests found the
	// request too slow for Options.Duration; zero otherwise. rounds, when
	// set, is fewer rounds than Options.Repeat, for the budget.
	duration time.Duration
	rounds   int
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
func (s Scenario) Transfer() bool { return s.Metric == results.MetricBytesPerSecond }

// Streams is the number of transfers or requests s keeps in flight.
func (s Scenario) Streams() int { return s.streams }

// ginBody is the gin post's request body: the decimal numbers 0 to 9999
// written one after another, 38,890 bytes ("a ~39 KB body").
const ginBody = 38890

// info is what sc is, as reports title it.
func (sc Scenario) info() results.ScenarioInfo {
	return results.ScenarioInfo{Name: sc.Name, Reproduces: sc.Reproduces, Description: sc.Description, Metric: sc.Metric}
}

// setInfo sets sc's name, sources, description and metric from info.
func (sc *Scenario) setInfo(info results.ScenarioInfo) {
	sc.Name, sc.Reproduces, sc.Description, sc.Metric = info.Name, info.Reproduces, info.Description, info.Metric
}

// init gives the built-in scenarios their titles from results.Catalogue,
// which holds what each is; a scenario missing there is a build defect.
func init() {
	for _, list := range [][]Scenario{Scenarios, NetScenarios} {
		for i := range list {
			info, ok := results.Describe(nil, list[i].Name)
			if !ok || info.Metric != list[i].Metric {
				panic("matrix: scenario " + list[i].Name + " is not in results.Catalogue as measured here")
			}
			list[i].setInfo(info)
		}
	}
}

// Scenarios is the default matrix's workloads, in report order.
var Scenarios = []Scenario{
	{Name: "download", Metric: results.MetricBytesPerSecond, streams: 1},
	{Name: "download-parallel-10", Metric: results.MetricBytesPerSecond, streams: 10},
	{Name: "download-parallel-100", Metric: results.MetricBytesPerSecond, streams: 100},
	{Name: "upload", Metric: results.MetricBytesPerSecond, streams: 1, upload: true},
	{Name: "small-sequential", Metric: results.MetricRequestsPerSecond, streams: 1,
		path: "/small", method: "GET"},
	{Name: "small-concurrent", Metric: results.MetricRequestsPerSecond, streams: 50,
		path: "/small", method: "GET"},
	{Name: "headers-body", Metric: results.MetricRequestsPerSecond, streams: 50,
		path: "/echo", method: "POST", body: ginBody, headers: load.HeaderSpec{Count: 100, Len: 100}},
	{Name: "grpc-1", Metric: results.MetricRequestsPerSecond, streams: 1, rpc: true},
	{Name: "grpc-50", Metric: results.MetricRequestsPerSecond, streams: 50, rpc: true},
}

// NetScenarios are the workloads where the network decides: handshakes,
// many objects at once, head-of-line blocking. They are not in "all" (the
// default matrix on loopback) but are in NetDefault, and --scenarios
// takes them by name or as the group "net".
var NetScenarios = []Scenario{
	{Name: "cold-start", Metric: results.MetricSeconds, streams: 1, path: "/small", method: "GET", kind: kindColdStart},
	{Name: "cold-start-resumed", Metric: results.MetricSeconds, streams: 1, path: "/small", method: "GET", kind: kindColdStart, resume: true},
	{Name: "page-load", Metric: results.MetricSeconds, streams: pageConns, path: "/small", method: "GET", kind: kindPageLoad},
	{Name: "head-of-line", Metric: results.MetricSeconds, streams: 2, path: "/small", method: "GET", kind: kindHeadOfLine},
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

// Upload says a transfer scenario sends its body (PUT /sink) rather than
// receives it.
func (s Scenario) Upload() bool { return s.upload }

// RPC says the scenario is a gRPC call, one binding per column.
func (s Scenario) RPC() bool { return s.rpc }

// BodyBytes is a load scenario's request body size, bytes; zero without one.
func (s Scenario) BodyBytes() units.Bytes { return s.body }

// Headers are the extra request headers a load scenario sends.
func (s Scenario) Headers() load.HeaderSpec { return s.headers }

// Resume says a cold-start scenario resumes TLS sessions (0-RTT over h3).
func (s Scenario) Resume() bool { return s.resume }

// Engine says the scenario is measured by the transfer or load engines
// (download, upload, small requests, gRPC), not by a network scenario's
// own loop.
func (s Scenario) Engine() bool { return s.kind == kindEngine }

// ColdStart, PageLoad and HeadOfLine say which network scenario s is.
func (s Scenario) ColdStart() bool  { return s.kind == kindColdStart }
func (s Scenario) PageLoad() bool   { return s.kind == kindPageLoad }
func (s Scenario) HeadOfLine() bool { return s.kind == kindHeadOfLine }
