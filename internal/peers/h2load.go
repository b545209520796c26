package peers

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// H2loadOptions describe one h2load run. Give Requests or Duration.
type H2loadOptions struct {
	// URL is requested, e.g. http://127.0.0.1:8080/small.
	URL string
	// Protocol is h1, h2c (prior knowledge), h1-tls or h2. h2load does not
	// verify certificates.
	Protocol transport.Protocol
	// Clients is the number of connections (h2load -c); if zero, 1.
	Clients int
	// Streams is the number of concurrent requests per connection
	// (h2load -m; HTTP/1.1 pipelines them); if zero, 1.
	Streams int
	// Threads is h2load's thread count (-t); if zero, 1.
	Threads int
	// Requests is how many requests to send (-n), when Duration is zero.
	Requests int
	// Duration is the measured time (-D), after Warmup (--warm-up-time).
	Duration, Warmup time.Duration
	// Timeout bounds the run; if zero, DefaultClientTimeout.
	Timeout time.Duration
}

// H2loadTimes are one row of h2load's timing table, to h2load's
// precision (microseconds below 1 ms, then 10 µs, then 10 ms).
type H2loadTimes struct {
	Min, Max time.Duration // fastest and slowest
	Mean, SD time.Duration // mean and standard deviation
}

// H2loadResult is one h2load run, from its report.
type H2loadResult struct {
	// Protocol is the transport of the run, from "Application protocol".
	Protocol transport.Protocol
	// Finished is the measured time ("finished in").
	Finished time.Duration
	// RequestsPerSecond is h2load's req/s over Finished.
	RequestsPerSecond float64
	// Request counts: Total asked, Started, Done, Succeeded (2xx or 3xx),
	// Failed (not succeeded), Errored (no response), Timeout.
	Total, Started, Done, Succeeded, Failed, Errored, Timeout int64
	// Status counts responses by class: [0] 2xx, [1] 3xx, [2] 4xx, [3] 5xx.
	Status [4]int64
	// Request is "time for request": send to end of response, per request.
	Request H2loadTimes
	// Connect is "time for connect", per connection.
	Connect H2loadTimes
	// FirstByte is "time to 1st byte", per connection.
	FirstByte H2loadTimes
	// Process is h2load's whole process: wall, user and system time.
	Process ProcessTime
}

// h2loadArgs returns h2load's command line for o.
func h2loadArgs(o H2loadOptions) ([]string, error) {
	if h2load, _ := Lookup("h2load"); !h2load.Speaks(o.Protocol) {
		return nil, fmt.Errorf("h2load here does not speak %s", o.Protocol)
	}
	if _, err := o.Protocol.ParseURL(o.URL); err != nil {
		return nil, fmt.Errorf("h2load: %w", err)
	}
	if (o.Requests > 0) == (o.Duration > 0) {
		return nil, fmt.Errorf("h2load: give requests or a duration, not %d and %v", o.Requests, o.Duration)
	}
	args := []string{
		"-c", strconv.Itoa(max(o.Clients, 1)),
		"-m", strconv.Itoa(max(o.Streams, 1)),
		"-t", strconv.Itoa(max(o.Threads, 1)),
	}
	if o.Requests > 0 {
		args = append(args, "-n", strconv.Itoa(o.Requests))
	} else {
		args = append(args, "-D", durationArg(o.Duration))
		if o.Warmup > 0 {
			args = append(args, "--warm-up-time", durationArg(o.Warmup))
		}
	}
	if o.Protocol.Version() == 1 {
		args = append(args, "--h1")
	}
	return append(args, o.URL), nil
}

// durationArg writes d as h2load and wrk read it: whole milliseconds.
func durationArg(d time.Duration) string {
	return strconv.FormatInt(max(d.Milliseconds(), 1), 10) + "ms"
}

// RunH2load runs h2load. A run that exits non-zero, whose report cannot
// be read, that used another transport than o.Protocol, or in which no
// request succeeded is an error; otherwise failed requests are counted
// in the result.
func RunH2load(ctx context.Context, o H2loadOptions) (H2loadResult, error) {
	args, err := h2loadArgs(o)
	if err != nil {
		return H2loadResult{}, err
	}
	run, err := runTool(ctx, "h2load", o.Timeout, args...)
	if err != nil {
		return H2loadResult{}, err
	}
	if run.exit != 0 {
		return H2loadResult{}, fmt.Errorf("h2load %s: exit %d: %s", o.URL, run.exit, lastLines(append(run.stdout, run.stderr...), 3))
	}
	res, err := ParseH2load(run.stdout)
	res.Process = run.time
	if err != nil {
		return res, fmt.Errorf("h2load %s: %w", o.URL, err)
	}
	if res.Protocol != o.Protocol {
		return res, fmt.Errorf("h2load %s: asked for %s, ran over %s", o.URL, o.Protocol, res.Protocol)
	}
	return res, nil
}

// h2loadProtocols maps "Application protocol" to transports.
var h2loadProtocols = map[string]transport.Protocol{
	"http/1.1": transport.H1, "h2c": transport.H2C, "h2": transport.H2, "h3": transport.H3,
}

// ParseH2load reads h2load's report (nghttp2 1.4x-1.6x): its
// "Application protocol" line, with its "TLS Protocol" line telling h1
// from h1-tls, gives the transport. A report in which no request
// succeeded is an error.
func ParseH2load(out []byte) (H2loadResult, error) {
	var r H2loadResult
	var seen int
	proto, tls := "", false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		var err error
		switch {
		case strings.HasPrefix(line, "Application protocol:"):
			proto = strings.TrimSpace(strings.TrimPrefix(line, "Application protocol:"))
		case strings.HasPrefix(line, "TLS Protocol:"):
			tls = true
		case strings.HasPrefix(line, "finished in "):
			err = parseFinished(line, &r)
			seen++
		case strings.HasPrefix(line, "requests: "):
			err = scanCounts(line, "requests: %d total, %d started, %d done, %d succeeded, %d failed, %d errored, %d timeout",
				&r.Total, &r.Started, &r.Done, &r.Succeeded, &r.Failed, &r.Errored, &r.Timeout)
			seen++
		case strings.HasPrefix(line, "status codes: "):
			err = scanCounts(line, "status codes: %d 2xx, %d 3xx, %d 4xx, %d 5xx", &r.Status[0], &r.Status[1], &r.Status[2], &r.Status[3])
			seen++
		case strings.HasPrefix(line, "time for request:"):
			r.Request, err = parseTimes(line)
		case strings.HasPrefix(line, "time for connect:"):
			r.Connect, err = parseTimes(line)
		case strings.HasPrefix(line, "time to 1st byte:"):
			r.FirstByte, err = parseTimes(line)
		}
		if err != nil {
			return r, fmt.Errorf("read h2load's %q: %w", line, err)
		}
	}
	if seen != 3 {
		return r, fmt.Errorf("h2load's report lacks its finished, requests or status codes line: %s", lastLines(out, 3))
	}
	if r.Succeeded == 0 {
		return r, fmt.Errorf("no request succeeded: %d of %d failed, %d errored, %d timed out", r.Failed, r.Total, r.Errored, r.Timeout)
	}
	p, ok := h2loadProtocols[proto]
	if !ok {
		return r, fmt.Errorf("h2load's application protocol %q is none of httpvs's transports", proto)
	}
	if p == transport.H1 && tls {
		p = transport.H1TLS
	}
	r.Protocol = p
	return r, nil
}

func scanCounts(line, format string, into ...any) error {
	n, err := fmt.Sscanf(line, format, into...)
	if err != nil || n != len(into) {
		return fmt.Errorf("want %q: %v", format, err)
	}
	return nil
}

// parseFinished reads "finished in 9.66ms, 20712.51 req/s, 504.67KB/s".
func parseFinished(line string, r *H2loadResult) error {
	f := strings.Fields(strings.NewReplacer(",", " ").Replace(line))
	if len(f) < 5 || f[4] != "req/s" {
		return fmt.Errorf("want \"finished in D, R req/s, ...\"")
	}
	var err error
	if r.Finished, err = time.ParseDuration(f[2]); err != nil {
		return err
	}
	r.RequestsPerSecond, err = strconv.ParseFloat(f[3], 64)
	return err
}

// parseTimes reads "time for request:   123us   3.19ms   846us   622us   84.00%".
func parseTimes(line string) (H2loadTimes, error) {
	f := strings.Fields(line[strings.IndexByte(line, ':')+1:])
	if len(f) < 4 {
		return H2loadTimes{}, fmt.Errorf("want min, max, mean and sd")
	}
	var d [4]time.Duration
	for i := range d {
		var err error
		if d[i], err = time.ParseDuration(f[i]); err != nil {
			return H2loadTimes{}, err
		}
	}
	return H2loadTimes{Min: d[0], Max: d[1], Mean: d[2], SD: d[3]}, nil
}
