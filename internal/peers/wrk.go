package peers

import (
	"bytes"
	"context"
	_ "embed" // the done() script
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// wrkScript is the Lua done() hook that prints wrk's summary as JSON.
//
//go:embed wrk.lua
var wrkScript []byte

// wrkMarker starts the JSON line wrkScript prints.
const wrkMarker = "HTTPVS-WRK "

// WrkOptions describe one wrk run (HTTP/1.1 only).
type WrkOptions struct {
	// URL is requested, e.g. http://127.0.0.1:8080/small.
	URL string
	// Protocol is h1 or h1-tls (wrk does not verify certificates).
	Protocol transport.Protocol
	// Connections is wrk -c; if zero, 10. At least Threads.
	Connections int
	// Threads is wrk -t; if zero, 2.
	Threads int
	// Duration is the time to run (at least 10 ms). wrk's -d takes whole
	// seconds: for a Duration that is not, RunWrk gives -d rounded up and
	// interrupts wrk (SIGINT) after Duration; wrk then stops at its next
	// 100 ms tick and reports the time it ran, so WrkResult.Duration is
	// what counts.
	Duration time.Duration
	// Timeout bounds the run; if zero, Duration plus a minute.
	Timeout time.Duration
}

// WrkErrors are wrk's error counts by kind. Status, Timeout and Non2xx
// count completed responses (all in WrkResult.Requests); Connect, Read
// and Write count socket failures, each of which loses the request in
// flight on its connection, if one was.
type WrkErrors struct {
	Connect int64 `json:"connect"` // connections that failed to open
	Read    int64 `json:"read"`    // socket read errors
	Write   int64 `json:"write"`   // socket write errors
	Status  int64 `json:"status"`  // responses with a status of 400 or more
	Timeout int64 `json:"timeout"` // responses later than wrk's --timeout (2 s)
	// Non2xx counts responses with a status outside 200-299, those in
	// Status too (from wrk.lua's response hook; 0 in output without it).
	Non2xx int64 `json:"non2xx"`
}

// Total returns the failures: socket errors, late responses and
// responses outside 2xx (one both late and outside 2xx counts twice).
func (e WrkErrors) Total() int64 {
	return e.Connect + e.Read + e.Write + e.Timeout + e.badStatus()
}

// badStatus is the responses outside 2xx (Status when Non2xx was not
// counted).
func (e WrkErrors) badStatus() int64 { return max(e.Status, e.Non2xx) }

// WrkLatency is wrk's latency distribution over the completed responses
// no later than its timeout, whatever their status, to the microsecond
// (wrk's unit): with failures in a run, it includes them.
type WrkLatency struct {
	Min, Max      time.Duration // fastest and slowest
	Mean, StdDev  time.Duration // mean and standard deviation
	P50, P90, P99 time.Duration // percentiles 50, 90 and 99
	P999          time.Duration // percentile 99.9
}

// WrkResult is one wrk run, from wrkScript's JSON.
type WrkResult struct {
	Duration          time.Duration // measured time
	Requests          int64         // completed requests (with any status)
	Succeeded         int64         // responses in 2xx, in time: Requests less Errors' bad statuses and timeouts
	Bytes             int64         // bytes read, headers included
	RequestsPerSecond float64       // Succeeded over Duration, per second
	Errors            WrkErrors     // errors by kind
	Latency           WrkLatency    // latency of completed requests
	Process           ProcessTime   // wrk's whole process: wall, user and system time
}

// wrkArgs returns wrk's command line for o, with its script at script,
// and when to interrupt wrk (0: let -d end it).
func wrkArgs(o WrkOptions, script string) ([]string, time.Duration, error) {
	if o.Protocol != transport.H1 && o.Protocol != transport.H1TLS {
		return nil, 0, fmt.Errorf("wrk does not speak %s", o.Protocol)
	}
	if _, err := o.Protocol.ParseURL(o.URL); err != nil {
		return nil, 0, fmt.Errorf("wrk: %w", err)
	}
	if o.Duration < 10*time.Millisecond {
		return nil, 0, fmt.Errorf("wrk: duration %v: want at least 10ms", o.Duration)
	}
	threads := max(o.Threads, 1)
	if o.Threads == 0 {
		threads = 2
	}
	conns := o.Connections
	if conns == 0 {
		conns = 10
	}
	secs := (o.Duration + time.Second - 1) / time.Second
	var interrupt time.Duration
	if o.Duration%time.Second != 0 {
		interrupt = o.Duration
	}
	return []string{
		"-t", strconv.Itoa(threads), "-c", strconv.Itoa(max(conns, threads)),
		"-d", strconv.FormatInt(int64(secs), 10) + "s", "-s", script, o.URL,
	}, interrupt, nil
}

// RunWrk runs wrk with wrk.lua. A run that exits non-zero, prints no
// summary, or completes no request is an error; the failures wrk counts
// are in the result.
func RunWrk(ctx context.Context, o WrkOptions) (WrkResult, error) {
	dir, err := os.MkdirTemp("", "httpvs-wrk-")
	if err != nil {
		return WrkResult{}, err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "done.lua")
	if err := os.WriteFile(script, wrkScript, 0o644); err != nil {
		return WrkResult{}, err
	}
	args, interrupt, err := wrkArgs(o, script)
	if err != nil {
		return WrkResult{}, err
	}
	if o.Timeout <= 0 {
		o.Timeout = o.Duration + time.Minute
	}
	run, err := runToolUntil(ctx, "wrk", o.Timeout, interrupt, args...)
	if err != nil {
		return WrkResult{}, err
	}
	if run.exit != 0 {
		return WrkResult{}, fmt.Errorf("wrk %s: exit %d: %s", o.URL, run.exit, lastLines(append(run.stdout, run.stderr...), 3))
	}
	res, err := ParseWrk(run.stdout)
	res.Process = run.time
	if err != nil {
		return res, fmt.Errorf("wrk %s: %w", o.URL, err)
	}
	return res, nil
}

// wrkJSON is what wrkScript prints; times in microseconds.
type wrkJSON struct {
	DurationUS int64     `json:"duration_us"`
	Requests   int64     `json:"requests"`
	Bytes      int64     `json:"bytes"`
	Errors     WrkErrors `json:"errors"`
	Latency    struct {
		Min, Max, P50, P90, P99, P999 int64
		Mean, Stdev                   float64
	} `json:"latency_us"`
}

// ParseWrk reads the output of wrk run with wrkScript (wrk 4). A run that
// completed no request is an error; one whose responses all failed is
// not (Succeeded is 0).
func ParseWrk(out []byte) (WrkResult, error) {
	i := bytes.LastIndex(out, []byte(wrkMarker))
	if i < 0 {
		return WrkResult{}, fmt.Errorf("no %q line in wrk's output: %s", wrkMarker, lastLines(out, 3))
	}
	line, _, _ := bytes.Cut(out[i+len(wrkMarker):], []byte("\n"))
	var j wrkJSON
	if err := json.Unmarshal(line, &j); err != nil {
		return WrkResult{}, fmt.Errorf("read wrk's summary: %w", err)
	}
	us := func(v int64) time.Duration { return time.Duration(v) * time.Microsecond }
	r := WrkResult{
		Duration: us(j.DurationUS), Requests: j.Requests, Bytes: j.Bytes, Errors: j.Errors,
		Succeeded: max(j.Requests-j.Errors.badStatus()-j.Errors.Timeout, 0),
		Latency: WrkLatency{
			Min: us(j.Latency.Min), Max: us(j.Latency.Max),
			Mean: time.Duration(j.Latency.Mean * 1e3), StdDev: time.Duration(j.Latency.Stdev * 1e3),
			P50: us(j.Latency.P50), P90: us(j.Latency.P90), P99: us(j.Latency.P99), P999: us(j.Latency.P999),
		},
	}
	if r.Duration <= 0 {
		return r, fmt.Errorf("wrk's summary has no duration: %s", line)
	}
	r.RequestsPerSecond = float64(r.Succeeded) / r.Duration.Seconds()
	if r.Requests == 0 {
		return r, fmt.Errorf("no request completed in %v: %+v", r.Duration, r.Errors)
	}
	return r, nil
}
