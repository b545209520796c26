package requests

import (
	"fmt"
	"strings"
	"testing"
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
