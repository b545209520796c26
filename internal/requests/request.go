// Package requests is a user's own requests, in one place: request lines
// as curl writes them and vegeta's targets files (parsing), the servers
// they name checked against the run's target (origins), and their bodies'
// files (curl's @FILE). What results keep of their headers, names and
// never values, is internal/redact's, below load and transfer.
package requests

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"

	"github.com/httpvs/httpvs/results"
)

// RequestGroup is the --scenarios group name of the user's requests.
const RequestGroup = "requests"

// ParseRequest reads a request line as curl or an HTTP request line
// writes it: "METHOD PATH" or "METHOD URL", e.g. "GET /api/items?id=7".
// A URL's path and query are the request's Path, its scheme and host its
// Origin: the run's target says where it goes, so callers check the
// Origin against it.
func ParseRequest(line string) (results.Request, error) {
	fields := strings.Fields(line)
	if len(fields) != 2 {
		return results.Request{}, fmt.Errorf("request %q: want a method and a path, e.g. \"GET /api/items?id=7\"", line)
	}
	method, target := fields[0], fields[1]
	for _, r := range method {
		if r < 'A' || r > 'Z' {
			return results.Request{}, fmt.Errorf("request %q: method %q is not a method (GET, POST, ...)", line, method)
		}
	}
	u, err := url.Parse(target)
	switch {
	case err != nil:
		return results.Request{}, fmt.Errorf("request %q: %v", line, err)
	case u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https":
		return results.Request{}, fmt.Errorf("request %q: scheme %q: want a path, or an http(s) URL", line, u.Scheme)
	case !strings.HasPrefix(u.RequestURI(), "/") || (u.Scheme == "" && !strings.HasPrefix(target, "/")):
		return results.Request{}, fmt.Errorf("request %q: want a path beginning with /, e.g. \"GET /api/items?id=7\"", line)
	}
	req := results.Request{Method: method, Path: u.RequestURI()}
	if u.Scheme != "" {
		req.Origin = u.Scheme + "://" + u.Host
	}
	return req, nil
}

// ReadTargetsFile reads the requests of the vegeta targets file name
// (ParseTargets), their @FILE bodies from paths relative to the working
// directory, as vegeta reads them.
func ReadTargetsFile(name string) ([]results.Request, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseTargets(f, func(body string) ([]byte, error) {
		b, err := os.ReadFile(body)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such file", body)
		}
		return b, err
	})
}

// ParseTargets reads requests in vegeta's HTTP targets format, as vegeta
// reads it (tsenart/vegeta lib/targets.go, NewHTTPTargeter): each request
// a line "METHOD URL" (or "METHOD /path"), then header lines "Name: value"
// (name kept as written, several values of one name kept in order), then
// optionally "@FILE", the body, read with readFile, which ends the
// request. A blank line ends a request too, and so does a line that is a
// request line itself: consecutive requests need no blank line between
// them. Lines starting with # are comments, between requests or among
// their headers. A header with no name or no value is an error, as in
// vegeta.
func ParseTargets(r io.Reader, readFile func(name string) ([]byte, error)) ([]results.Request, error) {
	var out []results.Request
	var cur *results.Request
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "#"):
		case line == "":
			cur = nil
		case cur == nil || requestLine.MatchString(line):
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
			SetBody(cur, body)
			cur = nil // as vegeta: the body ends the request
		default:
			name, value, ok := strings.Cut(line, ":")
			name, value = strings.TrimSpace(name), strings.TrimSpace(value)
			if !ok || name == "" || value == "" || strings.ContainsAny(name, " \t") {
				return nil, fmt.Errorf("line %d: %q is neither a header (Name: value) nor a body (@FILE)", n, line)
			}
			addHeader(cur, name, value)
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

// requestLine is vegeta's test for a line that starts a request: an
// upper-case word, then white space.
var requestLine = regexp.MustCompile(`^[A-Z]+\s`)

// addHeader adds a header to r, recording its name. The name is kept as
// written, as vegeta keeps it, for servers that care about its case
// (HTTP/2 and HTTP/3 send it lower-cased).
func addHeader(r *results.Request, name, value string) {
	if r.Header == nil {
		r.Header = http.Header{}
	}
	if len(r.Header[name]) == 0 {
		r.HeaderNames = append(r.HeaderNames, name)
	}
	r.Header[name] = append(r.Header[name], value)
}

// SetBody sets r's body, recording its length.
func SetBody(r *results.Request, body []byte) {
	r.Body, r.BodyBytes = bytes.Clone(body), len(body)
}
