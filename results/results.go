package results

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/httpvs/httpvs/internal/protoname"

	"github.com/httpvs/httpvs/stats"
)

// SchemaVersion is the version of results.json this package writes and
// reads. It changes when a field changes meaning or goes away; new fields
// do not change it. docs/results-schema.md describes it.
const SchemaVersion = 1

// Results is a whole run: results.json.
type Results struct {
	SchemaVersion int       `json:"schema_version"`
	Started       time.Time `json:"started"`
	Finished      time.Time `json:"finished"`
	// Partial says the run stopped before every cell was measured
	// (interrupted, or a fatal error); PartialReason says why.
	Partial       bool     `json:"partial"`
	PartialReason string   `json:"partial_reason,omitempty"`
	Env           Env      `json:"env"`
	Settings      Settings `json:"settings"`
	Cells         []Cell   `json:"cells"`
	// AA are the A/A cells: in each scenario Settings.AA names, the
	// baseline measured a second time as a column of its own ("h1 A/A"),
	// with its interval to the baseline (VsBaseline): the run's noise floor.
	// Kept apart from Cells, which hold the transports.
	AA []Cell `json:"aa,omitempty"`
	// References are the reference peers' cells (httpvs run --peers);
	// absent without peers.
	References []ReferenceCell `json:"references,omitempty"`
	// ReferenceConclusions say, a sentence per scenario, transport and
	// client the peers played, whose cost a gap is: the protocol's, or
	// Go's server or client (diagnosis.References); absent where the
	// peers show nothing either way.
	ReferenceConclusions []string `json:"reference_conclusions,omitempty"`
	// GoVersions is a run across Go toolchains (httpvs run --go), whose
	// cells are its own; absent otherwise.
	GoVersions *GoVersions `json:"go_versions,omitempty"`
	// Crossover is, across an emulated link, each transport's speed on
	// this machine without it (loopback, measured in the same run): the
	// link rate above which the transport, not the link, sets its
	// figures. Absent on loopback.
	Crossover []Crossover `json:"crossover,omitempty"`
	// PeersMissing names the peers asked for that are not installed, each
	// with the package that provides it.
	PeersMissing []string `json:"peers_missing,omitempty"`
	// Browser is the page loaded in a real browser, one cell a transport
	// ("browser-page-load", Options.Browser); absent when none was asked for.
	Browser []BrowserCell `json:"browser,omitempty"`
	// NotRun are the scenarios and transports an external target could
	// not be measured on because it lacks them (an endpoint, a
	// transport), each said once instead of as cells; absent when the run
	// measured all it was asked to.
	NotRun []NotRun `json:"not_run,omitempty"`
	// Sizing says, a line each, where the run measured the user's requests
	// otherwise than asked: a slow request's rounds made longer so that
	// they count enough requests, or fewer so that the run keeps within
	// its budget. Absent when none was.
	Sizing []string `json:"sizing,omitempty"`
	// Judgement is the analysis's conclusions; nil before it ran.
	Judgement *Judgement `json:"judgement,omitempty"`
}

// Cell is one scenario over one transport: every repetition and their
// summary. Summaries cover the repetitions that completed.
type Cell struct {
	Scenario string `json:"scenario"`
	Protocol string `json:"protocol"` // the transport asked for
	// Negotiated is the transport the responses came over; it differs from
	// Protocol only when a server refused the one asked for.
	Negotiated string `json:"negotiated"`
	Metric     string `json:"metric"` // MetricBytesPerSecond, MetricRequestsPerSecond or MetricSeconds (lower is better)
	// Skipped, when set, says why the cell was not measured.
	Skipped string `json:"skipped,omitempty"`
	// Knobs names the knob set of a variant scenario's client
	// (Settings.Alongside); empty when the cell used the run's settings.
	Knobs string `json:"knobs,omitempty"`
	// Failed says the cell was skipped because its check failed (TLS, a
	// refused connection, the wrong protocol), not because the target
	// lacks the endpoint or the transport: the run did not measure what
	// it was asked to.
	Failed bool `json:"failed,omitempty"`
	// Partial, when set, says the run ended (an interrupt, or its server's
	// death) before this cell's rounds were done, why, and how many
	// repetitions were kept: its figures and verdict are from those alone,
	// never from a repetition the end cut short or, in the round it ended
	// in, one that failed.
	Partial string `json:"partial,omitempty"`
	// Median, Min and Max summarise Value over the repetitions.
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	// Spread is (Max-Min)/Median; Noisy says it is above 10%.
	Spread float64 `json:"spread"`
	Noisy  bool    `json:"noisy"`
	// RatioToBaseline is Median over the baseline cell's Median in the same
	// scenario (the baseline's over this one's for MetricSeconds): above 1
	// means faster than the baseline, HTTP/1.1 unless Baseline says
	// otherwise. Zero when there is no baseline cell.
	RatioToBaseline float64 `json:"ratio_to_h1,omitempty"`
	// Baseline is the transport RatioToBaseline and VsBaseline compare with
	// (Settings.Baseline); "" when there is no baseline cell.
	Baseline string `json:"baseline,omitempty"`
	// VsBaseline is the ratio to the baseline with its 95% interval and verdict, from the
	// repetitions paired by round; nil for h1 and when no round paired.
	VsBaseline *Interval `json:"vs_h1,omitempty"`
	// TunedGain, on a tuned variant's cell, is its gain over the shipped
	// cell of the same transport, paired round by round; nil elsewhere.
	TunedGain *TunedGain `json:"tuned_gain,omitempty"`
	// FirstStage is how many rounds the cell's first stage had: rounds
	// past it were added from that stage's spread alone (RoundsBySpread),
	// and the interval keeps that stage's spread as Stein's two-stage
	// procedure does (twoStageInterval). Zero in results written before
	// it was recorded: the pooled interval alone.
	FirstStage int `json:"first_stage,omitempty"`
	// LastLook, when above FirstStage, is the most rounds the cell could
	// get with rounds stopping once its verdict was decided: its interval
	// is then Sequential's, looks after rounds FirstStage to LastLook
	// (sequentialInterval), and FirstStage's spread plans nothing.
	LastLook int `json:"last_look,omitempty"`
	// Errors sums the completed (not interrupted) repetitions' failed
	// requests or transfers.
	Errors stats.ErrorCounts `json:"errors"`
	// Bottleneck is the repetitions' most common Bottleneck.
	Bottleneck string `json:"bottleneck"`
	// CPUUnit is what the per-unit CPU figures are per: "GB" (10^9 body
	// bytes) or "1000 requests".
	CPUUnit string `json:"cpu_unit"`
	// Bound holds the cell against the emulated link's physics (Bounds);
	// nil on loopback and for scenarios without a bound.
	Bound *Bound `json:"bound,omitempty"`
	// ResponseBytes is the body length of the response a user's request
	// (Settings.Requests) got over this cell's transport when checked
	// before measuring; zero for httpvs's own scenarios.
	ResponseBytes int64 `json:"response_bytes,omitempty"`
	// ResponsesDiffer, for a user's request, says how the responses
	// differed between transports (their body lengths): the cells then
	// measured different work, which a ratio does not compare. "" when
	// they agreed.
	ResponsesDiffer string `json:"responses_differ,omitempty"`
	// Attribution says where the cell's extra CPU per CPUUnit over its
	// baseline's went, the client's and the server's, from CPU profiles
	// taken in a round of their own after the measured ones
	// (Options.Profile); nil when the cell was not profiled or was not
	// slower than its baseline.
	Attribution []*AttributionSide `json:"attribution,omitempty"`
	// Findings explain the cell's gap to h1, each with its evidence and
	// its fix (Diagnose).
	Findings []Finding `json:"findings,omitempty"`
	// Judged is what the analysis concluded of the cell.
	Judged
	Repetitions []Repetition `json:"repetitions"`
}

// Bottleneck values: which end probably limited a repetition.
const (
	BottleneckClient = "client" // the generator: its CPU was saturated while the server had headroom
	BottleneckServer = "server" // the server's CPU was saturated
	BottleneckNone   = ""       // neither end's CPU: flow control, latency or the kernel
)

// Repetition is one measurement of a cell.
type Repetition struct {
	// Round is the 1-based round the repetition ran in: a round measures
	// the scenario's columns one after another, so repetitions of one
	// round are compared with each other (Cell.VsBaseline). Rounds past
	// Settings.Repeat ran only for cells whose interval was still wide.
	// Zero in results written before rounds were recorded: the index+1.
	Round int `json:"round,omitempty"`
	// Value is the cell's Metric for this repetition.
	Value    float64 `json:"value"`
	Seconds  float64 `json:"seconds"`  // measured wall time
	Bytes    int64   `json:"bytes"`    // body bytes moved, both directions
	Requests int64   `json:"requests"` // requests or transfers completed, failed ones included
	Streams  int     `json:"streams"`  // transfers or requests in flight at once
	// Lowered says why fewer requests were in flight than the scenario
	// asks for (the server allows fewer HTTP/2 streams); "" if none.
	Lowered     string            `json:"concurrency_lowered,omitempty"`
	SizeBytes   int64             `json:"size_bytes"`         // transfers: each stream's body size
	Connections int64             `json:"connections"`        // connections the client opened
	Negotiated  string            `json:"negotiated"`         // the transport responses came over
	Engine      string            `json:"engine,omitempty"`   // load scenarios: the load engine, std or fast
	Interrupted bool              `json:"interrupted"`        // cut short; not in the cell's summary
	Profiled    bool              `json:"profiled,omitempty"` // CPU-profiled, in results written before profiles had rounds of their own
	Errors      stats.ErrorCounts `json:"errors"`
	FirstError  string            `json:"first_error,omitempty"`
	// Latency is per request (load scenarios), per transfer, or per unit of
	// work of a MetricSeconds scenario (a cold request, a page load, a
	// small request beside a download), whose median is Value.
	Latency stats.LatencySummary `json:"latency_seconds"`
	// Phases are cold-start's request phases; nil elsewhere.
	Phases *Phases `json:"phases,omitempty"`
	// ObjectLatency is page-load's per-object latency, from the page's
	// start to the object's last byte, in seconds; nil elsewhere.
	ObjectLatency *stats.LatencySummary `json:"object_latency_seconds,omitempty"`
	// FirstByteSeconds is a transfer's time from its start to the first
	// body byte moved (handshakes and the request); 0 when none moved.
	FirstByteSeconds float64 `json:"first_byte_seconds,omitempty"`
	// Omit is the start of a transfer its Value leaves out across a link
	// (handshakes, slow start), as iperf3's --omit; nil when none was.
	Omit *Omitted `json:"omit,omitempty"`
	// BulkBytes is head-of-line's download body bytes moved beside the
	// small requests (not in Bytes); zero elsewhere.
	BulkBytes int64 `json:"bulk_bytes,omitempty"`
	// Link is what the emulated link did over the repetition (its set-up
	// and warm-up included); nil without a link (run --net).
	Link *RepetitionLink `json:"link,omitempty"`
	// LatencyHistogram is the distribution behind Latency, in HdrHistogram's
	// portable V2 compressed base64 form ("HISTFAAA..."), so that
	// repetitions and runs merge exactly; "" when nothing finished.
	LatencyHistogram string `json:"latency_histogram,omitempty"`
	// ClientCPUSeconds and ServerCPUSeconds are user+system CPU time of
	// each process over the measured time. The server's figures are nil
	// (null) when its counters were unavailable (ServerNote says why): a
	// foreign server's CPU is unknown, not zero.
	ClientCPUSeconds float64  `json:"client_cpu_seconds"`
	ServerCPUSeconds *float64 `json:"server_cpu_seconds"`
	// ClientCPUPerUnit and ServerCPUPerUnit are CPU seconds per Cell.CPUUnit.
	ClientCPUPerUnit float64  `json:"client_cpu_per_unit"`
	ServerCPUPerUnit *float64 `json:"server_cpu_per_unit"`
	// ClientCores and ServerCores are CPU seconds per wall second: 1.0 is
	// one core busy throughout.
	ClientCores float64  `json:"client_cores"`
	ServerCores *float64 `json:"server_cores"`
	// ServerUnreliable, when set, says how the server's counts over its
	// window disagreed with the client's by more than 10%: its figures
	// are kept but no rule or bottleneck uses them.
	ServerUnreliable string `json:"server_unreliable,omitempty"`
	// ClientGCCycles is the client's completed GC cycles over the
	// repetition, ClientGoroutinesPeak its most goroutines (sampled every
	// 10 ms); the server's are in Server.Process.
	ClientGCCycles       int64  `json:"client_gc_cycles"`
	ClientGoroutinesPeak int64  `json:"client_goroutines_peak"`
	Bottleneck           string `json:"bottleneck"`
	// AllocsPerRequest and AllocBytesPerRequest are the client process's
	// heap allocations per request or transfer.
	AllocsPerRequest     float64            `json:"allocs_per_request"`
	AllocBytesPerRequest float64            `json:"alloc_bytes_per_request"`
	ClientBodyReads      int64              `json:"client_body_reads"` // transfers: Read calls on response bodies
	ClientReadSize       int                `json:"client_read_size"`  // transfers: the buffer those reads used, bytes
	ClientH2             stats.H2Frames     `json:"client_h2_frames"`  // transfers over h2c: the client's HTTP/2 frames
	ClientTCP            stats.IOStats      `json:"client_tcp"`        // transfers: the client's TCP connections
	ClientQUIC           stats.QUICStats    `json:"client_quic"`       // transfers: the client's QUIC connections
	Server               *stats.ServerStats `json:"server"`            // the server's counters over the repetition; null when unavailable
	ServerNote           string             `json:"server_note,omitempty"`
}

// WriteJSON writes r as indented JSON.
func (r *Results) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadJSON reads results.json, refusing another schema version.
func ReadJSON(rd io.Reader) (*Results, error) {
	var probe struct {
		SchemaVersion *int   `json:"schema_version"`
		Kind          string `json:"kind"`
	}
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("not an httpvs results file: %v", err)
	}
	if probe.Kind != "" {
		// httpvs load --json and merge write kind "load"; run writes none.
		return nil, fmt.Errorf("a %s result, not the results.json of httpvs run", probe.Kind)
	}
	if probe.SchemaVersion == nil {
		return nil, fmt.Errorf("not an httpvs results file: no schema_version")
	}
	if *probe.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("results schema version %d: this httpvs reads version %d only (re-run with this version, or compare with the httpvs that wrote it)", *probe.SchemaVersion, SchemaVersion)
	}
	var r Results
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("results file: %v", err)
	}
	return &r, nil
}

// Cell returns the cell for scenario and protocol, or nil.
func (r *Results) Cell(scenario, protocol string) *Cell {
	for i := range r.Cells {
		if r.Cells[i].Scenario == scenario && r.Cells[i].Protocol == protocol {
			return &r.Cells[i]
		}
	}
	return nil
}

// ScenarioNames returns the scenarios that have cells, in order of first
// appearance.
func (r *Results) ScenarioNames() []string {
	var names []string
	seen := map[string]bool{}
	for _, c := range r.Cells {
		if !seen[c.Scenario] {
			seen[c.Scenario] = true
			names = append(names, c.Scenario)
		}
	}
	return names
}

// ProtocolNames returns the columns that have cells in scenario (all
// scenarios when empty): transports in transport order, then other
// columns (grpc-native) in order of appearance.
func (r *Results) ProtocolNames(scenario string) []string {
	seen := map[string]bool{}
	var others []string
	for _, c := range r.Cells {
		if scenario != "" && c.Scenario != scenario {
			continue
		}
		if !seen[c.Protocol] {
			seen[c.Protocol] = true
			if !slices.Contains(transports, c.Protocol) {
				others = append(others, c.Protocol)
			}
		}
	}
	var names []string
	for _, p := range transports {
		if seen[p] {
			names = append(names, p)
		}
	}
	return append(names, others...)
}

// transports are the names of the five transports as cells carry them,
// in report order: transport.All's, which this package does not import
// (it speaks no protocol); a test holds them equal.
var transports = []string{protoname.H1, protoname.H2C, protoname.H1TLS, protoname.H2, protoname.H3}

// Crossover is one transport's speed on this machine without the link:
// one download and small requests on the server's own loopback, measured
// in the same run. A link slower than it binds the transport; above it,
// the transport's CPU cost does (golang/go#47840's gap appears).
type Crossover struct {
	Protocol string `json:"protocol"`
	// BytesPerSecond is one download's rate on loopback, client and
	// server sharing this machine's cores; 0 when it failed (Error says
	// why).
	BytesPerSecond float64 `json:"bytes_per_second"`
	// ClientCPUPerGB is the client's CPU seconds per 10^9 body bytes in
	// that download.
	ClientCPUPerGB float64 `json:"client_cpu_per_gb"`
	// RequestsPerSecond is small-concurrent's rate on loopback (GET /small,
	// 50 at a time); 0 when it failed.
	RequestsPerSecond float64 `json:"requests_per_second"`
	Error             string  `json:"error,omitempty"`
}

// Phases are the phases of cold requests (cold-start), in seconds. Over
// h3 connect and TLS are one QUIC handshake, counted in both; with 0-RTT
// it is over before the request goes out, and reads near zero.
type Phases struct {
	Connect stats.LatencySummary `json:"connect"` // TCP connect or QUIC handshake
	TLS     stats.LatencySummary `json:"tls"`     // TLS handshake (h1-tls, h2) or QUIC handshake (h3); empty for h1, h2c
	TTFB    stats.LatencySummary `json:"ttfb"`    // request start (before the dial) to the first response byte
	// Resumed counts connections whose TLS session was resumed.
	Resumed int64 `json:"resumed"`
}

// Omitted is the start of a transfer left out of its rate across a link
// (Options.Omit): handshakes and slow start.
type Omitted struct {
	Seconds float64 `json:"seconds"` // how long: the run's first Seconds
	Bytes   int64   `json:"bytes"`   // body bytes moved in it
	// SteadySeconds is the time the rate (Repetition.Value) is over: from
	// the end of the omitted part to the last body byte; 0 when Note says
	// why the steady rate was not measured (Value is then the whole
	// transfer's).
	SteadySeconds float64 `json:"steady_seconds,omitempty"`
	Note          string  `json:"note,omitempty"`
}
