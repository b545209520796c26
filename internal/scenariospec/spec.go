// Package scenariospec is the part of a plan.Scenario that only the
// machinery reads: how the scenario is measured. plan.Scenario keeps it
// in an unexported field, so that a user composes scenarios from plan's
// catalogue and cannot set it; Of, set by package plan, reaches it.
package scenariospec

import (
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// Kind is how a scenario is measured: the transfer or load engines, or
// one of internal/matrix's network scenarios.
type Kind int

// The kinds.
const (
	KindEngine     Kind = iota // transfer or load, by Metric
	KindColdStart              // coldstart.go
	KindPageLoad               // pageload.go
	KindHeadOfLine             // headofline.go
)

// Spec is how a scenario is measured.
type Spec struct {
	Upload  bool        // transfers: PUT to /sink instead of GET /bytes
	Streams int         // transfers: how many at once; load: how many requests in flight
	Path    string      // load: the request path
	Method  string      // load: the request method
	Body    units.Bytes // load: request body size
	Headers load.HeaderSpec
	RPC     bool // the gRPC ServeHTTP post's GetBook, one binding per column
	Kind    Kind // how it is measured
	Resume  bool // cold-start: resume TLS sessions, 0-RTT over h3
	// Knobs names the knob set of a variant scenario, and Client is its
	// client's configuration; "" and nil for the others.
	Knobs  string
	Client *config.Client
	// Req is the user's own request a scenario of plan.RequestScenarios
	// measures, with its body and headers; nil for httpvs's endpoints.
	Req *results.Request
	// Duration is a round's measured time when the request was found too
	// slow for Options.Duration; zero otherwise. Rounds, when set, is
	// fewer rounds than Options.Repeat, for the budget.
	Duration time.Duration
	Rounds   int
	// Transfers is, for a user's request measured as a transfer
	// (Req.Transfer), how many responses a round fetches, Streams at a
	// time; zero otherwise.
	Transfers int
	// OneResponse is, for a user's request measured as a transfer, how
	// long one response took over each transport the target serves when
	// it was sized (a transport whose fetch failed holds the first
	// transport's time); nil otherwise. A round over a transport is
	// estimated at Transfers of it.
	OneResponse map[transport.Protocol]time.Duration
}

// Of returns the Spec inside s, a *plan.Scenario. Package plan sets it
// when it is initialised; every importer of plan can call it.
var Of func(s any) *Spec

// Transfer reports whether a scenario of this metric moves big bodies
// (the transfer package) rather than many requests (the load package) or
// is a network scenario.
func Transfer(metric string) bool { return metric == results.MetricBytesPerSecond }

// User reports whether the scenario measures one of the user's own
// requests (plan.RequestScenarios) rather than httpvs's endpoints.
func (s *Spec) User() bool { return s.Req != nil }

// UserTransfer reports whether the scenario measures one of the user's
// requests as a transfer: its response is large (Req.Transfer).
func (s *Spec) UserTransfer() bool { return s.Req != nil && s.Req.Transfer }

// Engine says the scenario is measured by the transfer or load engines
// (download, upload, small requests, gRPC), not by a network scenario's
// own loop.
func (s *Spec) Engine() bool { return s.Kind == KindEngine }

// ColdStart, PageLoad and HeadOfLine say which network scenario it is.
func (s *Spec) ColdStart() bool  { return s.Kind == KindColdStart }
func (s *Spec) PageLoad() bool   { return s.Kind == KindPageLoad }
func (s *Spec) HeadOfLine() bool { return s.Kind == KindHeadOfLine }
