package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/load/loadresult"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/units"
)

// Load writes a load result for people, in the manner of wrk and h2load.
func Load(w io.Writer, r loadresult.Result) error {
	p := &printer{w: w}
	if r.Errors.Total > r.Succeeded {
		p.f("FAILED: %d of %d requests failed (%s), %d succeeded; the figures below count the successes only\n",
			r.Errors.Total, r.Requests, r.Errors, r.Succeeded)
	}
	negotiated := r.Protocol
	if negotiated == "" {
		negotiated = "nothing (no response)"
	}
	p.f("%s %s over %s (negotiated %s), engine %s: %s loop, concurrency %d, %s opened\n",
		r.Method, r.URL, r.Requested, negotiated, r.Engine, r.Mode, r.Concurrency, plural(int(r.Connections), "connection"))
	p.f("  requests  %d succeeded in %.2f s = %.0f req/s; %s\n", r.Succeeded, r.Seconds, r.RequestsPerSecond, r.Errors)
	if r.Lowered != "" {
		p.f("  note: %s; concurrency %d of the %d asked\n", r.Lowered, r.Concurrency, r.Asked)
	}
	if r.Interrupted {
		p.f("  interrupted: these are the figures measured until then\n")
	}
	if r.Stopped != "" {
		p.f("  %s\n", r.Stopped)
	}
	from := ""
	if r.Mode == "open" {
		from = " (from intended send times)"
	}
	p.f("  latency   %s%s\n", latencyLine(r.Latency), from)
	var phases []string
	for _, ph := range []struct {
		name string
		s    stats.LatencySummary
	}{{"connect", r.Phases.Connect}, {"tls", r.Phases.TLS}, {"ttfb", r.Phases.TTFB}} {
		if ph.s.Count > 0 {
			phases = append(phases, fmt.Sprintf("%s p50 %s p99 %s (%d)", ph.name, dur(ph.s.P50), dur(ph.s.P99), ph.s.Count))
		}
	}
	if len(phases) > 0 {
		p.f("  phases    %s\n", strings.Join(phases, "; "))
	}
	p.f("  bodies    %s received, %s sent, %s\n", units.Bytes(r.BytesReceived).Human(), units.Bytes(r.BytesSent).Human(), units.BitsPerSecond(r.BytesPerSecond*8).Human())
	cores, ran := 0.0, r.Seconds
	if r.RanSeconds > 0 {
		ran = r.RanSeconds // the CPU was spent over the whole phase, not only while the server answered
	}
	if ran > 0 {
		cores = r.ClientCPUSeconds / ran
	}
	p.f("  client    CPU %.2f s (%.2f cores); %.0f B and %.1f allocs per request\n", r.ClientCPUSeconds, cores, r.BytesPerRequest, r.AllocsPerRequest)
	if s := r.Schedule; s != nil {
		p.f("  schedule  target %.0f req/s; %d sent more than %v late; late by p50 %s p99 %s max %s\n",
			s.TargetRate, s.Late, defaults.LateThreshold, dur(s.LateBy.P50), dur(s.LateBy.P99), dur(s.LateBy.Max))
	}
	if r.FirstError != "" {
		p.f("  first error: %s\n", r.FirstError)
	}
	return p.err
}

func latencyLine(s stats.LatencySummary) string {
	if s.Count == 0 {
		return "-"
	}
	return fmt.Sprintf("p50 %s  p90 %s  p99 %s  p99.9 %s  max %s  mean %s",
		dur(s.P50), dur(s.P90), dur(s.P99), dur(s.P999), dur(s.Max), dur(s.Mean))
}

// dur prints seconds as a rounded duration: 412µs, 1.25ms, 2.1s.
func dur(seconds float64) string {
	d := time.Duration(seconds * float64(time.Second))
	switch {
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < time.Second:
		return d.Round(10 * time.Microsecond).String()
	default:
		return d.Round(10 * time.Millisecond).String()
	}
}
