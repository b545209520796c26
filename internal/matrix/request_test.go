package matrix

import (
	"fmt"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/internal/verdict"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
)

func TestParseRequest(t *testing.T) {
	for line, want := range map[string]string{
		"GET /api/items?id=7":              "GET /api/items?id=7",
		"POST http://example.test/a/b?c=d": "POST /a/b?c=d",
		"  DELETE   https://h:8443/x  ":    "DELETE /x",
		"GET http://host":                  "GET /",
		"PUT /v1/objects/%20name":          "PUT /v1/objects/%20name",
	} {
		r, err := ParseRequest(line)
		if err != nil || r.String() != want {
			t.Errorf("ParseRequest(%q) = %q, %v; want %q", line, r.String(), err, want)
		}
	}
	for line, why := range map[string]string{
		"GET":           "want a method and a path",
		"/path":         "want a method and a path",
		"get /path":     "is not a method",
		"GET path":      "beginning with /",
		"GET ftp://h/x": "scheme",
		"GET /a /b":     "want a method and a path",
	} {
		if _, err := ParseRequest(line); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("ParseRequest(%q): %v, want %q", line, err, why)
		}
	}
}

// TestParseTargets reads vegeta's HTTP format: headers and an @FILE body
// per request, comments and blank lines between them.
func TestParseTargets(t *testing.T) {
	text := `# the user's API
GET http://api.test/items?id=7
Authorization: Bearer x
X-Trace: 1
X-Trace: 2

POST /items
Content-Type: application/json
@item.json
`
	files := map[string]string{"item.json": `{"name":"book"}`}
	reqs, err := ParseTargets(strings.NewReader(text), func(name string) ([]byte, error) {
		if b, ok := files[name]; ok {
			return []byte(b), nil
		}
		return nil, fmt.Errorf("%s: no such file", name)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2: %+v", len(reqs), reqs)
	}
	a, b := reqs[0], reqs[1]
	if a.String() != "GET /items?id=7" || a.Header.Get("Authorization") != "Bearer x" || len(a.Header["X-Trace"]) != 2 ||
		strings.Join(a.HeaderNames, ",") != "Authorization,X-Trace" || a.Body != nil {
		t.Errorf("first: %+v", a)
	}
	if b.String() != "POST /items" || string(b.Body) != files["item.json"] || b.BodyBytes != len(files["item.json"]) || b.Header.Get("Content-Type") != "application/json" {
		t.Errorf("second: %+v", b)
	}
	for text, why := range map[string]string{
		"":                        "no request",
		"GET /a\nnot a header\n":  "line 2",
		"GET /a\n@missing.json\n": "line 2: body: missing.json",
		"GET /a\n\nGET\n":         "line 3",
	} {
		if _, err := ParseTargets(strings.NewReader(text), func(n string) ([]byte, error) { return nil, fmt.Errorf("%s: no such file", n) }); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("ParseTargets(%q): %v, want %q", text, err, why)
		}
	}
}

// TestRequestScenarios: each request is measured one at a time and 50 at
// a time, and a run's settings find its scenarios by name (results read
// back too), with their bodies' lengths.
func TestRequestScenarios(t *testing.T) {
	reqs := []results.Request{{Method: "GET", Path: "/a"}, {Method: "POST", Path: "/b"}}
	SetBody(&reqs[1], []byte("12345"))
	scs := plan.RequestScenarios(reqs)
	var names []string
	for _, sc := range scs {
		names = append(names, sc.Name)
		if !scenariospec.Of(&sc).User() || sc.Metric != results.MetricRequestsPerSecond {
			t.Errorf("%s: user %v, metric %s", sc.Name, scenariospec.Of(&sc).User(), sc.Metric)
		}
	}
	if got := strings.Join(names, ","); got != "request-1,request-1-x50,request-2,request-2-x50" {
		t.Fatalf("names %s", got)
	}
	if spec(&scs[3]).Streams != verdict.RequestConcurrency || spec(&scs[2]).Streams != 1 || scenariospec.Of(&scs[3]).Body != 5 || string(spec(&scs[3]).Req.Body) != "12345" {
		t.Errorf("request-2: %+v / %+v", scs[2], scs[3])
	}
	set := Options{Options: plan.Options{Scenarios: append(scs[:2:2], plan.Scenarios[0])}}.settings()
	if len(set.Requests) != 1 || set.Requests[0].String() != "GET /a" {
		t.Fatalf("settings' requests %+v", set.Requests)
	}
	if sc, ok := plan.ScenarioOf(&set, "request-1-x50"); !ok || sc.Description != "GET /a, 50 at a time (h1: 50 connections; h2, h3: 50 streams on one)" {
		t.Errorf("request-1-x50: %+v, %v", sc, ok)
	}
	if sc, ok := plan.ScenarioOf(&set, "download"); !ok || sc.Name != "download" {
		t.Errorf("download: %v", ok)
	}
	if _, ok := plan.ScenarioOf(&set, "request-2"); ok {
		t.Errorf("request-2 found in a run without it")
	}
}

func TestResponsesDiffer(t *testing.T) {
	cells := []results.Cell{{Protocol: "h1", ResponseBytes: 512}, {Protocol: "h2c", ResponseBytes: 512}, {Protocol: "h3", Skipped: "x"}}
	responsesDiffer(cells)
	if cells[0].ResponsesDiffer != "" {
		t.Errorf("same lengths: %q", cells[0].ResponsesDiffer)
	}
	cells[1].ResponseBytes = 0
	responsesDiffer(cells)
	want := "the response bodies differ by transport: h1 512 bytes, h2c 0 bytes"
	if cells[0].ResponsesDiffer != want || cells[1].ResponsesDiffer != want || cells[2].ResponsesDiffer != "" {
		t.Errorf("%q / %q / %q", cells[0].ResponsesDiffer, cells[1].ResponsesDiffer, cells[2].ResponsesDiffer)
	}
}
