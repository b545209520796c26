package merge

import (
	"slices"
	"strings"

	"github.com/httpvs/httpvs/internal/histogram"
	"github.com/httpvs/httpvs/load/loadresult"
)

// sum adds the parts' counts and merges their histograms. Rates and
// Seconds are set later, from the windows.
func sum(parts []Part, decoded []hists) loadresult.Result {
	first := parts[0].Result
	m := loadresult.Result{
		Engine: first.Engine, URL: first.URL, Method: first.Method, Requested: first.Requested, Mode: first.Mode,
		Settings: first.Settings, BodySize: first.BodySize, Headers: first.Headers, HeaderNames: first.HeaderNames,
		Kind: loadresult.Kind, SchemaVersion: loadresult.SchemaVersion,
		Started: first.Started, Finished: first.Finished,
	}
	lat, conn, tls, ttfb := histogram.New(), histogram.New(), histogram.New(), histogram.New()
	var late *histogram.Histogram
	if m.Mode == "open" {
		late = histogram.New()
		m.Schedule = &loadresult.Schedule{}
	}
	var allocBytes, allocObjects float64
	var lowered, stopped []string
	for i, p := range parts {
		r := p.Result
		h := decoded[i]
		lat.Merge(h.latency)
		conn.Merge(h.connect)
		tls.Merge(h.tls)
		ttfb.Merge(h.ttfb)
		if late != nil {
			late.Merge(h.late)
			m.Schedule.TargetRate += r.Schedule.TargetRate
			m.Schedule.Late += r.Schedule.Late
		}
		addCounts(&m, r)
		// Per-request allocation figures are ratios: weigh them by the
		// requests they were measured over, which gives the exact total.
		allocBytes += r.BytesPerRequest * float64(r.Requests)
		allocObjects += r.AllocsPerRequest * float64(r.Requests)
		if m.Protocol == "" {
			m.Protocol = r.Protocol
		}
		if m.FirstError == "" && r.FirstError != "" {
			m.FirstError = p.Name + ": " + r.FirstError
		}
		if r.Lowered != "" {
			lowered = append(lowered, p.Name+": "+r.Lowered)
		}
		if r.Stopped != "" {
			stopped = append(stopped, p.Name+": "+r.Stopped)
		}
		if r.Started.Before(m.Started) {
			m.Started = r.Started
		}
		if r.Finished.After(m.Finished) {
			m.Finished = r.Finished
		}
		m.Parts += max(r.Parts, 1)
		m.Runs = append(m.Runs, runsIn(r)...)
	}
	m.Lowered, m.Stopped = strings.Join(lowered, "; "), strings.Join(stopped, "; ")
	if m.Requests > 0 {
		m.BytesPerRequest = allocBytes / float64(m.Requests)
		m.AllocsPerRequest = allocObjects / float64(m.Requests)
	}
	m.Host, m.Hosts = hosts(parts)
	m.Latency = lat.Summary()
	m.Phases = loadresult.Phases{Connect: conn.Summary(), TLS: tls.Summary(), TTFB: ttfb.Summary()}
	if late != nil {
		m.Schedule.LateBy = late.Summary()
	}
	// histogram.Decode checked every part's configuration: encoding
	// histograms of it, to memory, does not fail.
	m.Histograms, _ = histogram.EncodeLoad(lat, conn, tls, ttfb, late)
	return m
}

// addCounts adds r's counts to m: everything that sums across generators.
func addCounts(m *loadresult.Result, r loadresult.Result) {
	m.Concurrency += r.Concurrency
	m.Asked += r.Asked
	if r.ServerMaxStreams > 0 && (m.ServerMaxStreams == 0 || r.ServerMaxStreams < m.ServerMaxStreams) {
		m.ServerMaxStreams = r.ServerMaxStreams
	}
	m.Connections += r.Connections
	m.Requests += r.Requests
	m.Succeeded += r.Succeeded
	m.BytesReceived += r.BytesReceived
	m.BytesSent += r.BytesSent
	m.Errors.Add(r.Errors)
	m.ClientCPUSeconds += r.ClientCPUSeconds
	m.ClientGCCycles += r.ClientGCCycles
	// Peaks on different machines need not coincide: the largest one is
	// the only figure that is certainly right.
	m.ClientGoroutinesPeak = max(m.ClientGoroutinesPeak, r.ClientGoroutinesPeak)
	m.Interrupted = m.Interrupted || r.Interrupted
}

// hosts returns the parts' common host ("" when they differ) and their
// distinct hosts, sorted, with merged parts' own hosts included.
func hosts(parts []Part) (string, []string) {
	var all []string
	for _, p := range parts {
		if len(p.Result.Hosts) > 0 {
			all = append(all, p.Result.Hosts...)
		} else if p.Result.Host != "" {
			all = append(all, p.Result.Host)
		}
	}
	slices.Sort(all)
	all = slices.Compact(all)
	if len(all) == 1 {
		return all[0], all
	}
	return "", all
}
