package load

import (
	"os"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// Result is a load run's outcome. Counts cover the measured phase only
// (after warmup); requests cut off by the end of the run or an interrupt
// are neither successes nor errors, unless the server had stopped
// answering (see StallAfter): then those with no response are timeouts.
type Result struct {
	Engine      string `json:"engine"` // Engine's name ("std", "fast"), or the CallerName`
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
	// that showed: every request refused or timed out for GoneAfter (the
	// run then stopped early), or requests with no response, cut off by
	// the end of the run, that had waited at least StallAfter while the
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

	// What lets results from several generators be merged (package merge).
	// Kind is ResultKind and SchemaVersion ResultSchemaVersion: readers
	// refuse other kinds and versions.
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
	// HeaderNames are the names of Config.Header's extra headers, sorted;
	// their values, which may be credentials, are not recorded.
	HeaderNames []string `json:"header_names,omitempty"`
	// Histograms are the distributions behind Latency, Phases and
	// Schedule.LateBy, exact and mergeable: Latency and TTFB hold Succeeded
	// values (TTFB fewer when a stack does not report it), LateBy Requests.
	Histograms *Histograms `json:"histograms,omitempty"`
	// Share is the part of a split load this run was ("I/N", Config.Share);
	// "" for the whole load or a merge.
	Share string `json:"share,omitempty"`
	// Parts is how many load runs a merged result sums; 0 for one run.
	Parts int `json:"parts,omitempty"`
}

// The kind and schema version of Result's JSON form. The version changes
// when a field changes meaning or unit, or goes away; not when one is added.
const (
	ResultKind          = "load"
	ResultSchemaVersion = 1
)

// Histograms are a result's distributions in HdrHistogram's portable V2
// compressed base64 form ("HISTFAAA...", stats.Histogram.Encode): values in
// microseconds, 1 µs to 10 minutes, 3 significant figures. An empty
// distribution is an encoded empty histogram, not "".
type Histograms struct {
	Latency string `json:"latency"`           // as Result.Latency
	Connect string `json:"connect"`           // as Phases.Connect
	TLS     string `json:"tls"`               // as Phases.TLS
	TTFB    string `json:"ttfb"`              // as Phases.TTFB
	LateBy  string `json:"late_by,omitempty"` // as Schedule.LateBy; open loop only
}

// EncodeHistograms encodes a run's histograms (Histogram.Encode); late is
// nil for a closed loop, which leaves LateBy empty.
func EncodeHistograms(latency, connect, tls, ttfb, late *stats.Histogram) (*Histograms, error) {
	var h Histograms
	for _, e := range []struct {
		dst *string
		src *stats.Histogram
	}{{&h.Latency, latency}, {&h.Connect, connect}, {&h.TLS, tls}, {&h.TTFB, ttfb}, {&h.LateBy, late}} {
		if e.src == nil {
			continue
		}
		s, err := e.src.Encode()
		if err != nil {
			return nil, err
		}
		*e.dst = s
	}
	return &h, nil
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
	Late       int64                `json:"late"`        // requests sent more than LateThreshold after their intended time
	LateBy     stats.LatencySummary `json:"late_by"`     // how late every request was sent
}

// engineName is what results record as their engine.
func (r *run) engineName() string {
	if r.cfg.NewCaller != nil {
		return r.cfg.CallerName
	}
	return r.cfg.Engine.String()
}

// result merges the shards.
func (r *run) result(clients []connClient, interrupted bool) Result {
	res := Result{
		Engine:           r.engineName(),
		URL:              r.cfg.URL,
		Method:           r.cfg.Method,
		Requested:        r.cfg.Client.Protocol.String(),
		Mode:             "closed",
		Concurrency:      r.cfg.Conns * r.cfg.Streams,
		Asked:            r.cfg.Conns * r.askedStreams,
		ServerMaxStreams: r.serverMaxStreams,
		Lowered:          r.lowered,
		Interrupted:      interrupted,
		Settings:         r.cfg.Client.Config.Effective(),
	}
	lat, ttfb, conn, tls, late := stats.NewHistogram(), stats.NewHistogram(), stats.NewHistogram(), stats.NewHistogram(), stats.NewHistogram()
	var lateCount int64
	for _, s := range r.shards {
		// net/http may still be finishing a dial for the pool and fire a
		// trace hook into the shard: read it under its lock.
		s.mu.Lock()
		lat.Merge(s.latency)
		ttfb.Merge(s.ttfb)
		conn.Merge(s.connect)
		tls.Merge(s.tls)
		late.Merge(s.late)
		lateCount += s.lateCount
		res.Requests += s.requests
		res.Succeeded += s.succeeded
		res.BytesReceived += s.bytesIn
		res.BytesSent += s.bytesOut
		res.Errors.Add(s.errors)
		if res.FirstError == "" {
			res.FirstError = s.firstErr
		}
		if s.negotiated {
			res.Protocol = res.Requested
		}
		s.mu.Unlock()
	}
	res.Latency = lat.Summary()
	res.Phases = Phases{Connect: conn.Summary(), TLS: tls.Summary(), TTFB: ttfb.Summary()}
	if r.open {
		res.Mode = "open"
		res.Schedule = &Schedule{TargetRate: r.cfg.Rate, Late: lateCount, LateBy: late.Summary()}
	} else {
		late = nil
	}
	res.Kind, res.SchemaVersion = ResultKind, ResultSchemaVersion
	res.BodySize, res.Headers = int64(r.cfg.BodySize), r.cfg.Headers.String()
	res.HeaderNames = transport.HeaderNames(r.cfg.Header)
	res.Share = r.cfg.Share.String()
	res.Histograms, _ = EncodeHistograms(lat, conn, tls, ttfb, late) // writes to memory: cannot fail
	for _, c := range clients {
		res.Connections += c.Connections()
	}
	return res
}

// finish completes res once the workers are done at finished: the measured
// window on the wall clock (up to the server's last answer, when it
// stopped answering: sl), the host, the rates over the window and the
// process figures between the samples bracketing it.
func (r *run) finish(res *Result, sl silence, finished time.Time, before, after sample) {
	// A closed loop measures from when its measured phase began; an open
	// one from measureAt, by its requests' intended times.
	from := r.measuredFrom
	if r.open {
		from = r.measureAt
	}
	window := max(finished.Sub(from), 0)
	if !r.byCount && finished.After(r.end) {
		window = max(r.end.Sub(from), 0)
	}
	window = r.stoppedAnswering(res, sl, from, window)
	res.Seconds = window.Seconds()
	res.Started = from.UTC()
	res.Finished = res.Started.Add(window)
	res.Host, _ = os.Hostname()
	if res.Seconds > 0 {
		res.RequestsPerSecond = float64(res.Succeeded) / res.Seconds
		res.BytesPerSecond = float64(res.BytesReceived+res.BytesSent) / res.Seconds
	}
	res.ClientCPUSeconds = after.proc.Sub(before.proc).CPUSeconds()
	res.ClientGCCycles = after.proc.GCCycles - before.proc.GCCycles
	res.ClientGoroutinesPeak = after.goroutinesPeak
	if res.Requests > 0 {
		res.BytesPerRequest = float64(after.allocBytes-before.allocBytes) / float64(res.Requests)
		res.AllocsPerRequest = float64(after.allocObjects-before.allocObjects) / float64(res.Requests)
	}
}
