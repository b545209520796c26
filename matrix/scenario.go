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

	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/units"
)

// Metric names: what a cell's Value measures. Both are higher-is-better.
const (
	MetricBytesPerSecond    = "bytes_per_second"    // body bytes moved per second, all streams
	MetricRequestsPerSecond = "requests_per_second" // completed requests per second
)

// Scenario is one workload of the matrix.
type Scenario struct {
	// Name is what --scenarios takes and what each cell carries.
	Name string
	// Seeds are the seed documents it reproduces, e.g. "000".
	Seeds string
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
	rpc     bool // seed 003's GetBook, one binding per column
}

// Transfer reports whether s moves big bodies (transfer package) rather
// than many requests (load package).
func (s Scenario) Transfer() bool { return s.Metric == MetricBytesPerSecond }

// Streams is the number of transfers or requests s keeps in flight.
func (s Scenario) Streams() int { return s.streams }

// seed004Body is seed 004's request body: the decimal numbers 0 to 9999
// written one after another, 38,890 bytes ("a ~39 KB body").
const seed004Body = 38890

// Scenarios is the default matrix's workloads, in report order.
var Scenarios = []Scenario{
	{Name: "download", Seeds: "000", Metric: MetricBytesPerSecond, streams: 1,
		Description: "one big download on one stream"},
	{Name: "download-parallel-10", Seeds: "001", Metric: MetricBytesPerSecond, streams: 10,
		Description: "10 downloads at once (h1: 10 connections; h2, h3: 10 streams on one)"},
	{Name: "download-parallel-100", Seeds: "001", Metric: MetricBytesPerSecond, streams: 100,
		Description: "100 downloads at once (h1: 100 connections; h2, h3: 100 streams on one)"},
	{Name: "upload", Seeds: "000", Metric: MetricBytesPerSecond, streams: 1, upload: true,
		Description: "one big upload on one stream"},
	{Name: "small-sequential", Seeds: "002", Metric: MetricRequestsPerSecond, streams: 1,
		path: "/small", method: "GET",
		Description: "GET /small (2 bytes), one request at a time"},
	{Name: "small-concurrent", Seeds: "002, 004", Metric: MetricRequestsPerSecond, streams: 50,
		path: "/small", method: "GET",
		Description: "GET /small, 50 at a time (h1: 50 connections; h2, h3: 50 streams on one)"},
	{Name: "headers-body", Seeds: "004", Metric: MetricRequestsPerSecond, streams: 50,
		path: "/echo", method: "POST", body: seed004Body, headers: load.HeaderSpec{Count: 100, Len: 100},
		Description: "POST /echo with a 38,890-byte body and 100 headers of 100 characters, 50 at a time"},
	{Name: "grpc-1", Seeds: "003", Metric: MetricRequestsPerSecond, streams: 1, rpc: true,
		Description: "gRPC GetBook one at a time: h1 JSON, h2c/h2 grpc ServeHTTP, grpc-native grpc-go's own server"},
	{Name: "grpc-50", Seeds: "003", Metric: MetricRequestsPerSecond, streams: 50, rpc: true,
		Description: "gRPC GetBook 50 at a time (h1: 50 connections; gRPC: 50 streams on one)"},
}

// groups are names --scenarios takes for several scenarios at once.
var groups = map[string][]string{
	"download-parallel": {"download-parallel-10", "download-parallel-100"},
	"grpc":              {"grpc-1", "grpc-50"},
}

// ScenarioNames lists every scenario name and group, for messages.
func ScenarioNames() string {
	names := make([]string, 0, len(Scenarios)+len(groups))
	for _, s := range Scenarios {
		names = append(names, s.Name)
	}
	names = append(names, "download-parallel", "grpc")
	return strings.Join(names, ", ")
}

// ParseScenarios reads a comma-separated list of scenario names (or
// "all"), keeping the order of Scenarios and dropping repeats.
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
			if _, ok := ScenarioByName(name); !ok {
				return nil, fmt.Errorf("unknown scenario %q: want all or a comma-separated list of %s", name, ScenarioNames())
			}
			want[name] = true
		}
	}
	var out []Scenario
	for _, s := range Scenarios {
		if want[s.Name] {
			out = append(out, s)
		}
	}
	return out, nil
}

// ScenarioByName returns the scenario called name.
func ScenarioByName(name string) (Scenario, bool) {
	for _, s := range Scenarios {
		if s.Name == name {
			return s, true
		}
	}
	return Scenario{}, false
}
