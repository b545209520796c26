package matrix

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/requests"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
)

// TestRequestScenarios: each request is measured one at a time and 50 at
// a time, and a run's settings find its scenarios by name (results read
// back too), with their bodies' lengths.
func TestRequestScenarios(t *testing.T) {
	reqs := []results.Request{{Method: "GET", Path: "/a"}, {Method: "POST", Path: "/b"}}
	requests.SetBody(&reqs[1], []byte("12345"))
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
	if spec(&scs[3]).Streams != 50 || spec(&scs[2]).Streams != 1 || scenariospec.Of(&scs[3]).Body != 5 || string(spec(&scs[3]).Req.Body) != "12345" {
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
