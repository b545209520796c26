// Package loadresult holds what a load run produces, as data: the Result
// that package load fills, its JSON form (`httpvs load --json`, the parts
// `httpvs merge` reads) and the figures it is made of. It is a leaf: it
// imports no protocol stack, so that renderers (package report) and
// mergers (internal/merge, behind httpvs merge) can read a result
// without linking the clients that measured it. Transports are named by string, as package results
// names them.
package loadresult

import (
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/stats"
)

// Result is a load run's outcome. Counts cover the measured phase only
// (after warmup); requests cut off by the end of the run or an interrupt
// are neither successes nor errors, unless the server had stopped
// answering (see load.StallAfter): then those with no response are timeouts.
type Result struct {
	Engine      string `json:"engine"` // load.Engine's name ("std", "fast"), or load.Config.CallerName
	URL         string `json:"url"`
	Method      string `json:"method"`
	Requested   string `json:"requested"`   // the transport asked for
	Protocol    string `json:"protocol"`    // the transport negotiated; "" if no response arrived
	Mode        string `json:"mode"`        // "closed" or "open"
	Concurrency int    `json:"concurrency"` // requests in flight at once: connections x streams that ran
	// Asked is the concurrency asked for; it differs from Concurrency when
	// the server allows fewer streams per connection (Lowered says so).
	Asked int `json:"concurrency_asked"`
	// ServerMaxStreams is the HTTP/2 server's SETTINGS_MAX_CONCURRENT_STREAMS,
	// or the HTTP/3 server's QUIC initial_max_streams_bidi (fast engine),
	// when it was probed (more than one stream per connection asked); 0 if
	// unknown or unlimited.
	ServerMaxStreams  int                  `json:"server_max_streams,omitempty"`
	Lowered           string               `json:"concurrency_lowered,omitempty"` // why Concurrency is below Asked
	Connections       int64                `json:"connections"`                   // connections opened, warmup included
	Requests          int64                `json:"requests"`                      // ended in the measured phase: Succeeded + Errors.Total
	Succeeded         int64                `json:"succeeded"`                     // 2xx with the whole body: the only requests in rates, bytes and latency
	Errors            stats.ErrorCounts    `json:"errors"`
	FirstError        string               `json:"first_error,omitempty"`
	Seconds           float64              `json:"seconds"`             // measured wall time (while the server answered: StoppedAnswering)
	RequestsPerSecond float64              `json:"requests_per_second"` // Succeeded / Seconds
	BytesReceived     int64                `json:"bytes_received"`      // response body bytes of successful requests
	BytesSent         int64                `json:"bytes_sent"`          // request body bytes of successful requests
	BytesPerSecond    float64              `json:"bytes_per_second"`
	Latency           stats.LatencySummary `json:"latency_seconds"` // successful requests; open loop: from the intended send time
	Phases            Phases               `json:"phases_seconds"`
	Schedule          *Schedule            `json:"schedule,omitempty"` // open loop only
	ClientCPUSeconds  float64              `json:"client_cpu_seconds"`
	// ClientGCCycles is the GC cycles the process completed while measuring;
	// ClientGoroutinesPeak the most goroutines it had (sampled every 10 ms).
	ClientGCCycles       int64 `json:"client_gc_cycles"`
	ClientGoroutinesPeak int64 `json:"client_goroutines_peak"`
	// BytesPerRequest and AllocsPerRequest are heap bytes and objects the
	// whole process allocated per measured request (runtime/metrics); with
	// the server in the same process they include its allocations.
	BytesPerRequest  float64 `json:"bytes_per_request"`
	AllocsPerRequest float64 `json:"allocs_per_request"`
	Interrupted      bool    `json:"interrupted"`
	// Stopped, when set, says that the server stopped answering and how
	// that showed: every request refused or timed out for load.GoneAfter (the
	// run then stopped early), or requests with no response, cut off by
	// the end of the run, that had waited at least load.StallAfter while the
	// server answered nothing (counted as timeouts).
	Stopped string `json:"stopped,omitempty"`
	// StoppedAnswering, when not zero, is when the server stopped
	// answering, in seconds from the start of the measured phase: when it
	// was last heard from (the end of a successful response, the first
	// byte of a failed one). Seconds, Finished and the rates then cover the
	// phase up to there, and RanSeconds is how long the phase ran.
	StoppedAnswering float64 `json:"stopped_answering_seconds,omitempty"`
	// RanSeconds, when not zero, is the whole measured phase in seconds,
	// longer than Seconds because the server stopped answering during it.
	RanSeconds float64       `json:"ran_seconds,omitempty"`
	Settings   config.Client `json:"settings"`

	// What lets results from several generators be merged (internal/merge).
	// Kind is the constant Kind and SchemaVersion the constant
	// SchemaVersion: readers refuse other kinds and versions.
	Kind          string `json:"kind"`
	SchemaVersion int    `json:"schema_version"`
	// Host is the generator's host name (os.Hostname; a pod's name on
	// Kubernetes); in a merge, the parts' host if they share one, else "".
	Host string `json:"host,omitempty"`
	// Hosts, in a merge, are the parts' distinct hosts, sorted; absent for
	// one run.
	Hosts []string `json:"hosts,omitempty"`
	// Started and Finished bound the measured phase on the wall clock, in
	// UTC (RFC 3339 with nanoseconds in JSON); for one run Seconds is their
	// difference. A merge spans from the earliest start to the latest end,
	// and its Seconds is the length of the union of the parts' windows
	// (less than the span when they leave gaps).
	Started  time.Time `json:"started,omitzero"`
	Finished time.Time `json:"finished,omitzero"`
	// BodySize is each request's body in bytes; Headers the extra request
	// headers as N:LEN ("" for none).
	BodySize int64  `json:"body_size"`
	Headers  string `json:"headers,omitempty"`
	// HeaderNames are the names of load.Config.Header's extra headers,
	// sorted; their values, which may be credentials, are not recorded.
	HeaderNames []string `json:"header_names,omitempty"`
	// Histograms are the distributions behind Latency, Phases and
	// Schedule.LateBy, exact and mergeable: Latency and TTFB hold Succeeded
	// values (TTFB fewer when a stack does not report it), LateBy Requests.
	Histograms *Histograms `json:"histograms,omitempty"`
	// Share is the part of a split load this run was ("I/N",
	// load.Config.Share); "" for the whole load or a merge.
	Share string `json:"share,omitempty"`
	// Parts is how many load runs a merged result sums; 0 for one run.
	Parts int `json:"parts,omitempty"`
	// Runs, in a merge, name every load run it sums, each with its
	// share, so that a merged result merged again keeps them and a run
	// given twice, in whatever file, is refused; absent for one run.
	Runs []Run `json:"runs,omitempty"`
}

// Run names one load run inside a merged result: no two generators' runs
// share all of these.
type Run struct {
	Host      string    `json:"host,omitempty"`
	Started   time.Time `json:"started"`
	Finished  time.Time `json:"finished"`
	Requests  int64     `json:"requests"`
	Succeeded int64     `json:"succeeded"`
	Share     string    `json:"share,omitempty"`
}

// The kind and schema version of Result's JSON form. The version changes
// when a field changes meaning or unit, or goes away; not when one is added.
const (
	Kind          = "load"
	SchemaVersion = 1
)

// Histograms are a result's distributions in HdrHistogram's portable V2
// compressed base64 form ("HISTFAAA..."): values in
// microseconds, 1 µs to 10 minutes, 3 significant figures. An empty
// distribution is an encoded empty histogram, not "".
type Histograms struct {
	Latency string `json:"latency"`           // as Result.Latency
	Connect string `json:"connect"`           // as Phases.Connect
	TLS     string `json:"tls"`               // as Phases.TLS
	TTFB    string `json:"ttfb"`              // as Phases.TTFB
	LateBy  string `json:"late_by,omitempty"` // as Schedule.LateBy; open loop only
}

// Phases are request phase timings: from net/http/httptrace on the std
// engine, from the lean client's own clock on the fast one (whose event
// loops read the clock once per socket read, so a first byte is timed when
// the read that brought it returned).
type Phases struct {
	Connect stats.LatencySummary `json:"connect"` // TCP connect, per new connection (h1, h2c, h1-tls, h2)
	TLS     stats.LatencySummary `json:"tls"`     // TLS handshake, per new connection (h1-tls, h2)
	TTFB    stats.LatencySummary `json:"ttfb"`    // request start to first response byte
}

// Schedule says how well an open-loop run kept its rate. A generator that
// cannot keep up shows it here rather than in hidden latency.
type Schedule struct {
	TargetRate float64              `json:"target_rate"` // requests per second asked for
	Late       int64                `json:"late"`        // requests sent more than 1 ms after their intended time
	LateBy     stats.LatencySummary `json:"late_by"`     // how late every request was sent
}
