package requests

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// readTestdata reads a body named in a targets file from testdata/vegeta,
// standing for the working directory vegeta reads them from.
func readTestdata(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join("testdata", "vegeta", name))
}

// want is a request as vegeta's own test expects it.
type want struct {
	method, origin, path string
	header               http.Header
	body                 string
}

func checkTargets(t *testing.T, file string, wants []want) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "vegeta", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	reqs, err := ParseTargets(f, readTestdata)
	if err != nil {
		t.Fatal(err)
	}
	if len(reqs) != len(wants) {
		t.Fatalf("%d requests, want %d: %+v", len(reqs), len(wants), reqs)
	}
	for i, w := range wants {
		r := reqs[i]
		if r.Method != w.method || r.Origin != w.origin || r.Path != w.path || string(r.Body) != w.body || r.BodyBytes != len(w.body) ||
			!reflect.DeepEqual(r.Header, w.header) {
			t.Errorf("request %d: %s %s%s %v body %q; want %s %s%s %v body %q", i+1, r.Method, r.Origin, r.Path, r.Header, r.Body, w.method, w.origin, w.path, w.header, w.body)
		}
	}
}

// TestParseTargetsVegetaFixture: vegeta's own test of its HTTP format
// (lib/targets_test.go, TestNewHTTPTargeter) parses to the requests it
// expects there: headers per target, several values of one header,
// bodies from @FILE, comments between targets and among headers, methods
// of any upper-case word.
func TestParseTargetsVegetaFixture(t *testing.T) {
	xh := http.Header{"X-Header": {"1", "2"}}
	checkTargets(t, "targets.txt", []want{
		{"GET", "http://:6060", "/", xh, ""},
		{"PUT", "https://:6060", "/123", nil, ""},
		{"DELETE", "http://moo:443", "/boo", nil, ""},
		{"POST", "http://foobar.org", "/fnord", http.Header{"Authorization": {"x12345"}}, "Hello world!"},
		{"POST", "http://foobar.org", "/fnord/2", http.Header{"Authorization": {"x67890"}}, "Hello world!"},
		{"SUBSCRIBE", "http://foobar.org", "/sub", nil, ""},
		{"GET", "http://:6060", "/", xh, ""},
		{"GET", "http://:8000", "/", xh, ""},
	})
}

// TestParseTargetsConsecutive: requests without blank lines between them,
// as vegeta reads a request line after a target; a header's name kept as
// written; Host a header like the others (the engines make it the
// request's host).
func TestParseTargetsConsecutive(t *testing.T) {
	o := "http://127.0.0.1:8080"
	checkTargets(t, "consecutive.txt", []want{
		{"GET", o, "/a", nil, ""},
		{"GET", o, "/b", http.Header{"Host": {"api.example"}, "x-lower": {"kept as written"}}, ""},
		{"POST", o, "/c", http.Header{"Content-Type": {"text/plain"}}, "Hello world!"},
		{"GET", o, "/d", nil, ""},
	})
}

// TestParseTargetsVegetaErrors: the inputs vegeta's test refuses are
// refused here, each with its line.
func TestParseTargetsVegetaErrors(t *testing.T) {
	for text, why := range map[string]string{
		"DO_WORK http://:6000": "is not a method",
		"DOwork http://:6000":  "is not a method",
		"GET":                  "want a method and a path",
		"GET foobar":           "beginning with /",
		"GET http://:6060\n@238hhqwjhd8hhw3r.txt": "line 2: body",
		"GET http://:6060\nAuthorization":         "line 2",
		"GET http://:6060\nAuthorization:":        "line 2",
		"GET http://:6060\n: 1234":                "line 2",
		"":                                        "no request",
	} {
		_, err := ParseTargets(strings.NewReader(text), readTestdata)
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("ParseTargets(%q): %v, want %q", text, err, why)
		}
	}
	_, err := ParseTargets(strings.NewReader("GET /a\n@none"), func(n string) ([]byte, error) { return nil, fmt.Errorf("%s: no such file", n) })
	if err == nil || !strings.Contains(err.Error(), "none: no such file") {
		t.Errorf("missing body: %v", err)
	}
}
