package results

import (
	"net/http"
)

// Request is one of the user's own requests, measured as two scenarios
// (RequestScenarios): one at a time and RequestConcurrency at a time, over
// every transport against the run's target.
type Request struct {
	// Method is the request method, e.g. GET.
	Method string `json:"method"`
	// Path is the path and query sent to each transport's base URL, e.g.
	// /api/items?id=7.
	Path string `json:"path"`
	// Header holds the request's own headers, beside Options.Header.
	Header http.Header `json:"-"`
	// HeaderNames are Header's names, as results record them (not their
	// values, which may be credentials).
	HeaderNames []string `json:"header_names,omitempty"`
	// Body is the request body; nil sends none.
	Body []byte `json:"-"`
	// BodyBytes is len(Body), as results record it.
	BodyBytes int `json:"body_bytes,omitempty"`
	// Origin is the scheme and host of the URL the request was written
	// with, e.g. http://127.0.0.1:8080; empty for a path alone. A run
	// sends the request to its own target: callers check Origin against it.
	Origin string `json:"-"`
	// ResponseBytes is the length of the response body the request got
	// when the run first sent it, before measuring; zero when unknown.
	ResponseBytes int64 `json:"response_bytes,omitempty"`
	// Transfer says the run measured the request as a transfer, its
	// response being large (ResponseBytes at least the run's threshold,
	// a mebibyte): in bytes per second and CPU per GB, judged
	// by the transfer rules, each round fetching several responses.
	Transfer bool `json:"transfer,omitempty"`
}

// String is r as its request line: "GET /api/items?id=7".
func (r Request) String() string { return r.Method + " " + r.Path }

// NotRun is a scenario or a transport a run left out: the target lacks
// it (its endpoint answered with an error status, or the server does not
// speak the transport), or the budget cannot hold the fewest rounds an
// interval of it needs.
type NotRun struct {
	// Scenario is the scenario left out; empty when a transport was.
	Scenario string `json:"scenario,omitempty"`
	// Protocol is the transport left out; empty when a scenario was.
	Protocol string `json:"protocol,omitempty"`
	// Reason says why, in a line: "h2c prior knowledge refused by this
	// server", "GET /small: 404 Not Found".
	Reason string `json:"reason"`
	// Field is the option that would let it run, a field path as
	// config.FieldError names them ("Target.ServerName"); empty when no
	// option would.
	Field string `json:"field,omitempty"`
	// Value is a value of Field that would let it run ("2m30s"); empty
	// when none is known.
	Value string `json:"value,omitempty"`
}

// String is n as a report lists it: "h2c: h2c prior knowledge refused by
// this server".
func (n NotRun) String() string {
	what := n.Scenario
	if what == "" {
		what = n.Protocol
	}
	return what + ": " + n.Reason
}
