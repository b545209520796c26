package matrix

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"

	"github.com/httpvs/httpvs/units"
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
}

// RequestConcurrency is how many of a request the concurrent scenario of a
// user's request keeps in flight, as small-concurrent does.
const RequestConcurrency = 50

// RequestGroup is the --scenarios group name of the user's requests.
const RequestGroup = "requests"

// ParseRequest reads a request line as curl or an HTTP request line
// writes it: "METHOD PATH" or "METHOD URL" (only the URL's path and query
// are kept: the run's target says where it goes), e.g.
// "GET /api/items?id=7".
func ParseRequest(line string) (Request, error) {
	fields := strings.Fields(line)
	if len(fields) != 2 {
		return Request{}, fmt.Errorf("request %q: want a method and a path, e.g. \"GET /api/items?id=7\"", line)
	}
	method, target := fields[0], fields[1]
	for _, r := range method {
		if r < 'A' || r > 'Z' {
			return Request{}, fmt.Errorf("request %q: method %q is not a method (GET, POST, ...)", line, method)
		}
	}
	u, err := url.Parse(target)
	switch {
	case err != nil:
		return Request{}, fmt.Errorf("request %q: %v", line, err)
	case u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https":
		return Request{}, fmt.Errorf("request %q: scheme %q: want a path, or an http(s) URL", line, u.Scheme)
	case !strings.HasPrefix(u.RequestURI(), "/") || (u.Scheme == "" && !strings.HasPrefix(target, "/")):
		return Request{}, fmt.Errorf("request %q: want a path beginning with /, e.g. \"GET /api/items?id=7\"", line)
	}
	return Request{Method: method, Path: u.RequestURI()}, nil
}

// ParseTargets reads requests in vegeta's HTTP targets format: blocks
// separated by blank lines, each a request line ("GET http://host/path"
// or "GET /path"), then header lines ("Name: value"), then optionally a
// line "@FILE" naming the body, read with readFile. Lines starting with #
// are comments.
func ParseTargets(r io.Reader, readFile func(name string) ([]byte, error)) ([]Request, error) {
	var out []Request
	var cur *Request
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "#"):
		case line == "":
			cur = nil
		case cur == nil:
			req, err := ParseRequest(line)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
			out = append(out, req)
			cur = &out[len(out)-1]
		case strings.HasPrefix(line, "@"):
			body, err := readFile(strings.TrimPrefix(line, "@"))
			if err != nil {
				return nil, fmt.Errorf("line %d: body: %w", n, err)
			}
			cur.SetBody(body)
		default:
			name, value, ok := strings.Cut(line, ":")
			if !ok || strings.TrimSpace(name) == "" || strings.ContainsAny(name, " \t") {
				return nil, fmt.Errorf("line %d: %q is neither a header (Name: value) nor a body (@FILE)", n, line)
			}
			cur.AddHeader(name, strings.TrimSpace(value))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no request in it: want lines such as \"GET http://host/path\"")
	}
	return out, nil
}

// AddHeader adds a header to r, recording its name.
func (r *Request) AddHeader(name, value string) {
	if r.Header == nil {
		r.Header = http.Header{}
	}
	name = textproto.CanonicalMIMEHeaderKey(name)
	if len(r.Header[name]) == 0 {
		r.HeaderNames = append(r.HeaderNames, name)
	}
	r.Header.Add(name, value)
}

// SetBody sets r's body, recording its length.
func (r *Request) SetBody(body []byte) {
	r.Body, r.BodyBytes = bytes.Clone(body), len(body)
}

// String is r as its request line: "GET /api/items?id=7".
func (r Request) String() string { return r.Method + " " + r.Path }

// RequestScenarios are the scenarios measuring reqs: for the i-th
// (1-based) "request-i", one request at a time, and "request-i-x50",
// RequestConcurrency at a time, as small-sequential and small-concurrent
// measure httpvs's own /small.
func RequestScenarios(reqs []Request) []Scenario {
	var out []Scenario
	for i := range reqs {
		req := &reqs[i]
		name := "request-" + strconv.Itoa(i+1)
		one := Scenario{Name: name, Reproduces: "your request", Metric: MetricRequestsPerSecond, streams: 1,
			path: req.Path, method: req.Method, body: units.Bytes(req.BodyBytes), req: req,
			Description: req.String() + ", one at a time"}
		many := one
		many.Name = fmt.Sprintf("%s-x%d", name, RequestConcurrency)
		many.streams = RequestConcurrency
		many.Description = fmt.Sprintf("%s, %d at a time (h1: %d connections; h2, h3: %d streams on one)", req, RequestConcurrency, RequestConcurrency, RequestConcurrency)
		out = append(out, one, many)
	}
	return out
}

// requestsOf are the user's requests scenarios measure, each once.
func requestsOf(scenarios []Scenario) []Request {
	var out []Request
	seen := map[*Request]bool{}
	for _, sc := range scenarios {
		if sc.req != nil && !seen[sc.req] {
			seen[sc.req] = true
			out = append(out, *sc.req)
		}
	}
	return out
}

// Scenario returns the scenario of a run with settings s called name:
// one of the user's requests (Settings.Requests), or as ScenarioByName.
func (s *Settings) Scenario(name string) (Scenario, bool) {
	if s != nil && len(s.Requests) > 0 {
		for _, sc := range RequestScenarios(s.Requests) {
			if sc.Name == name {
				return sc, true
			}
		}
	}
	return ScenarioByName(name)
}

// mergeHeaders is a's headers, then b's added.
func mergeHeaders(a, b http.Header) http.Header {
	if len(b) == 0 {
		return a
	}
	out := a.Clone()
	if out == nil {
		out = http.Header{}
	}
	for k, vs := range b {
		out[k] = append(out[k], vs...)
	}
	return out
}

// responsesDiffer notes in each measured cell of a user's request whose
// response body lengths differ between transports how they differ.
func responsesDiffer(cells []Cell) {
	var parts []string
	lengths := map[int64]bool{}
	for _, c := range cells {
		if c.Skipped == "" {
			lengths[c.ResponseBytes] = true
			parts = append(parts, fmt.Sprintf("%s %d bytes", c.Protocol, c.ResponseBytes))
		}
	}
	if len(lengths) < 2 {
		return
	}
	note := "the response bodies differ by transport: " + strings.Join(parts, ", ")
	for i := range cells {
		if cells[i].Skipped == "" {
			cells[i].ResponsesDiffer = note
		}
	}
}
