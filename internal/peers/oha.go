package peers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// OhaOptions describe one oha run (github.com/hatoo/oha, Rust: hyper for
// HTTP/1.1 and HTTP/2, quinn and h3 for HTTP/3).
type OhaOptions struct {
	// URL is requested, e.g. https://127.0.0.1:8443/small.
	URL string
	// Protocol is h1, h2c (prior knowledge), h1-tls, h2 or h3. oha does
	// not verify certificates here (--insecure).
	Protocol transport.Protocol
	// Connections is oha -c; if zero, 1.
	Connections int
	// Streams is the number of requests in flight per HTTP/2 or HTTP/3
	// connection (oha -p); if zero, 1. HTTP/1.1 has one per connection.
	Streams int
	// Duration is the time to run (oha -z), at least 10 ms. oha has no
	// warm-up: connection set-up is inside it.
	Duration time.Duration
	// Timeout bounds the run; if zero, Duration plus a minute.
	Timeout time.Duration
}

// OhaLatency is oha's latency distribution over the responses it got,
// whatever their status, to the nanosecond.
type OhaLatency struct {
	Min, Max, Mean time.Duration // fastest, slowest, mean
	P50, P99       time.Duration // percentiles 50 and 99
}

// OhaResult is one oha run, from its JSON report.
type OhaResult struct {
	// Duration is the measured time: oha's whole run ("total"),
	// connection set-up included, but no longer than its -z deadline.
	// oha reports later (over HTTP/3 it waits, after the deadline, for the
	// QUIC connection to close: 30 s with a quic-go server), but requests
	// end at the deadline: over HTTP/1.1 oha aborts those in flight
	// (Aborted); over HTTP/2 and HTTP/3 it lets them finish, so up to
	// Streams more succeed than fit the deadline.
	Duration time.Duration
	// Responses counts responses by status code.
	Responses map[int]int64
	// Succeeded counts responses with a 2xx status.
	Succeeded int64
	// Errors counts requests that got no response, by oha's message for
	// the error, except those cut off by the end of Duration (Aborted).
	Errors map[string]int64
	// Aborted counts requests still in flight when Duration ended (oha's
	// "aborted due to deadline"): neither succeeded nor failed.
	Aborted int64
	// RequestsPerSecond is Succeeded over Duration, per second.
	RequestsPerSecond float64
	// Latency is over every response, whatever its status.
	Latency OhaLatency
	// Process is oha's whole process: wall, user and system time.
	Process ProcessTime
}

// Failed returns the requests that did not succeed: responses outside
// 2xx and errors (not Aborted).
func (r OhaResult) Failed() int64 {
	var n int64
	for code, c := range r.Responses {
		if code < 200 || code > 299 {
			n += c
		}
	}
	for _, c := range r.Errors {
		n += c
	}
	return n
}

// Load returns r in the terms every client shares. oha does not report
// the protocol it spoke; it speaks only the version it was asked for, so
// the caller's is the run's.
func (r OhaResult) Load(p transport.Protocol) LoadResult {
	return LoadResult{Client: "oha", Protocol: p, Duration: r.Duration, Process: r.Process,
		Succeeded: r.Succeeded, Failed: r.Failed(), RequestsPerSecond: r.RequestsPerSecond}
}

// ohaVersions maps transports to oha's --http-version.
var ohaVersions = map[transport.Protocol]string{
	transport.H1: "1.1", transport.H1TLS: "1.1", transport.H2C: "2", transport.H2: "2", transport.H3: "3",
}

// ohaArgs returns oha's command line for o.
func ohaArgs(o OhaOptions) ([]string, error) {
	version, ok := ohaVersions[o.Protocol]
	if !ok {
		return nil, fmt.Errorf("oha does not speak %s", o.Protocol)
	}
	if _, err := o.Protocol.ParseURL(o.URL); err != nil {
		return nil, fmt.Errorf("oha: %w", err)
	}
	if o.Duration < 10*time.Millisecond {
		return nil, fmt.Errorf("oha: duration %v: want at least 10ms", o.Duration)
	}
	args := []string{
		"--no-tui", "--output-format", "json", "--http-version", version,
		"-c", strconv.Itoa(max(o.Connections, 1)), "-p", strconv.Itoa(max(o.Streams, 1)),
		"-z", strconv.FormatInt(o.Duration.Milliseconds(), 10) + "ms",
	}
	if o.Protocol.TLS() {
		args = append(args, "--insecure")
	}
	return append(args, o.URL), nil
}

// RunOha runs oha. A run that exits non-zero or whose report cannot be
// read is an error; failed requests are counted in the result.
func RunOha(ctx context.Context, o OhaOptions) (OhaResult, error) {
	args, err := ohaArgs(o)
	if err != nil {
		return OhaResult{}, err
	}
	if o.Timeout <= 0 {
		o.Timeout = o.Duration + time.Minute
	}
	run, err := runTool(ctx, "oha", o.Timeout, args...)
	if err != nil {
		return OhaResult{}, err
	}
	if run.exit != 0 {
		return OhaResult{}, fmt.Errorf("oha %s: exit %d: %s", o.URL, run.exit, lastLines(append(run.stdout, run.stderr...), 3))
	}
	res, err := ParseOha(run.stdout, o.Duration)
	res.Process = run.time
	if err != nil {
		return res, fmt.Errorf("oha %s: %w", o.URL, err)
	}
	return res, nil
}

// ohaJSON is the part of oha's --output-format json report httpvs reads;
// times in seconds.
type ohaJSON struct {
	Summary *struct {
		Total   float64  `json:"total"`
		Slowest *float64 `json:"slowest"`
		Fastest *float64 `json:"fastest"`
		Average *float64 `json:"average"`
	} `json:"summary"`
	Percentiles  map[string]*float64 `json:"latencyPercentiles"`
	Statuses     map[string]int64    `json:"statusCodeDistribution"`
	Distribution map[string]int64    `json:"errorDistribution"`
}

// ohaDeadline is oha's message for requests cut off by -z's end.
const ohaDeadline = "aborted due to deadline"

// ParseOha reads oha's JSON report (oha 1.x, --output-format json) of a
// run with -z deadline (0: a run without one). A report without a run
// time is an error; one whose requests all failed is not (Succeeded is 0).
func ParseOha(out []byte, deadline time.Duration) (OhaResult, error) {
	var j ohaJSON
	if err := json.Unmarshal(bytes.TrimSpace(out), &j); err != nil {
		return OhaResult{}, fmt.Errorf("read oha's report: %w: %s", err, lastLines(out, 3))
	}
	if j.Summary == nil || !(j.Summary.Total > 0) || j.Summary.Total > 1e6 {
		return OhaResult{}, fmt.Errorf("oha's report has no run time: %s", lastLines(out, 3))
	}
	r := OhaResult{Duration: time.Duration(math.Round(j.Summary.Total * 1e9)), Responses: map[int]int64{}, Errors: map[string]int64{}}
	if deadline > 0 {
		r.Duration = min(r.Duration, deadline)
	}
	for code, n := range j.Statuses {
		c, err := strconv.Atoi(code)
		if err != nil || c < 100 || c > 999 || n < 0 {
			return OhaResult{}, fmt.Errorf("oha's status code distribution: %q: %d", code, n)
		}
		r.Responses[c] += n
		if c >= 200 && c <= 299 {
			r.Succeeded += n
		}
	}
	for msg, n := range j.Distribution {
		if n < 0 {
			return OhaResult{}, fmt.Errorf("oha's error distribution: %q: %d", msg, n)
		}
		if msg == ohaDeadline {
			r.Aborted += n
		} else {
			r.Errors[msg] += n
		}
	}
	r.RequestsPerSecond = float64(r.Succeeded) / r.Duration.Seconds()
	s := j.Summary
	r.Latency = OhaLatency{Min: secondsOf(s.Fastest), Max: secondsOf(s.Slowest), Mean: secondsOf(s.Average),
		P50: secondsOf(j.Percentiles["p50"]), P99: secondsOf(j.Percentiles["p99"])}
	return r, nil
}

// secondsOf is seconds of an optional figure (null when oha had no
// response to time): 0 when absent or not finite.
func secondsOf(s *float64) time.Duration {
	if s == nil || math.IsNaN(*s) || math.IsInf(*s, 0) || math.Abs(*s) > 1e6 {
		return 0
	}
	return time.Duration(math.Round(*s * 1e9))
}
