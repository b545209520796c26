package verdict

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/httpvs/httpvs/results"
)

// Catalogue is every built-in scenario, in report order: the default
// matrix's, then those where the network decides.
var catalogue = []results.ScenarioInfo{
	{Name: "download", Reproduces: "golang/go#47840", Metric: results.MetricBytesPerSecond,
		Description: "one big download on one stream"},
	{Name: "download-parallel-10", Reproduces: "the golang/go#47840 fork with I/O statistics and parallel downloads", Metric: results.MetricBytesPerSecond,
		Description: "10 downloads at once (h1: 10 connections; h2, h3: 10 streams on one)"},
	{Name: "download-parallel-100", Reproduces: "the golang/go#47840 fork with I/O statistics and parallel downloads", Metric: results.MetricBytesPerSecond,
		Description: "100 downloads at once (h1: 100 connections; h2, h3: 100 streams on one)"},
	{Name: "upload", Reproduces: "golang/go#47840", Metric: results.MetricBytesPerSecond,
		Description: "one big upload on one stream"},
	{Name: "small-sequential", Reproduces: "the gonuget benchmark", Metric: results.MetricRequestsPerSecond,
		Description: "GET /small (2 bytes), one request at a time"},
	{Name: "small-concurrent", Reproduces: "the gonuget benchmark, the gin post", Metric: results.MetricRequestsPerSecond,
		Description: "GET /small, 50 at a time (h1: 50 connections; h2, h3: 50 streams on one)"},
	{Name: "headers-body", Reproduces: "the gin post", Metric: results.MetricRequestsPerSecond,
		Description: "POST /echo with a 38,890-byte body and 100 headers of 100 characters, 50 at a time"},
	{Name: "grpc-1", Reproduces: "the gRPC ServeHTTP post", Metric: results.MetricRequestsPerSecond,
		Description: "gRPC GetBook one at a time: h1 JSON, h2c/h2 grpc ServeHTTP, grpc-native grpc-go's own server"},
	{Name: "grpc-50", Reproduces: "the gRPC ServeHTTP post", Metric: results.MetricRequestsPerSecond,
		Description: "gRPC GetBook 50 at a time (h1: 50 connections; gRPC: 50 streams on one)"},
	{Name: "cold-start", Reproduces: "RFC 9000 and RFC 8446 handshake round trips", Metric: results.MetricSeconds,
		Description: "GET /small on a brand-new connection each time: connect, TLS, first byte; the connection closed after"},
	{Name: "cold-start-resumed", Reproduces: "RFC 8446 resumption, RFC 9001 0-RTT", Metric: results.MetricSeconds,
		Description: "cold-start resuming a TLS session (h1-tls, h2) or with 0-RTT (h3); h1 and h2c as cold-start"},
	{Name: "page-load", Reproduces: "the HTTP Archive median page", Metric: results.MetricSeconds,
		Description: "a 50-object page (HTTP Archive median mix) on fresh connections: the document, then the rest at once (h1: 6 connections; h2, h3: 1)"},
	{Name: "head-of-line", Reproduces: "Langley et al., SIGCOMM 2017", Metric: results.MetricSeconds,
		Description: "GET /small one at a time beside a bulk download (h2, h3: on its connection; h1: on a second one)"},
}

// VariantSep joins a scenario's name and a knob set's in a variant
// scenario's name: "download:tuned" is download with the tuned client.
const VariantSep = results.VariantSep

// RequestConcurrency is how many of a request the concurrent scenario of
// a user's request keeps in flight ("request-1-x50").
const RequestConcurrency = 50

// VariantInfo is base measured with the client knobs of the set called
// set: "download:tuned".
func VariantInfo(base results.ScenarioInfo, set string) results.ScenarioInfo {
	base.Name += VariantSep + set
	base.Description += ", client knobs " + set
	return base
}

// RequestInfo is what the two scenarios measuring the i-th (1-based) of
// the user's requests are: "request-i", one at a time, and
// "request-i-x50", RequestConcurrency at a time.
func RequestInfo(i int, req results.Request) (one, many results.ScenarioInfo) {
	one = results.ScenarioInfo{Name: "request-" + strconv.Itoa(i), Reproduces: "your request", Metric: results.MetricRequestsPerSecond,
		Description: req.String() + ", one at a time"}
	many = one
	many.Name = fmt.Sprintf("%s-x%d", one.Name, RequestConcurrency)
	many.Description = fmt.Sprintf("%s, %d at a time (h1: %d connections; h2, h3: %d streams on one)", req, RequestConcurrency, RequestConcurrency, RequestConcurrency)
	return one, many
}

// Describe returns the scenario called name of a run with settings s
// (nil: none): a built-in one, a variant of one ("download:tuned"), or
// one of s.Requests'.
func Describe(s *results.Settings, name string) (results.ScenarioInfo, bool) {
	for _, sc := range catalogue {
		if sc.Name == name {
			return sc, true
		}
	}
	if base, set, ok := strings.Cut(name, VariantSep); ok && set != "" {
		if b, ok := Describe(nil, base); ok {
			return VariantInfo(b, set), true
		}
	}
	if s != nil {
		for i, req := range s.Requests {
			one, many := RequestInfo(i+1, req)
			switch name {
			case one.Name:
				return one, true
			case many.Name:
				return many, true
			}
		}
	}
	return results.ScenarioInfo{}, false
}
