package requests

import (
	"errors"
	"slices"
	"testing"

	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
)

func parseRequests(t *testing.T, lines ...string) []results.Request {
	t.Helper()
	var reqs []results.Request
	for _, l := range lines {
		r, err := ParseRequest(l)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		reqs = append(reqs, r)
	}
	return reqs
}

// TestRequestTarget: the one cleartext and the one TLS server the
// requests name, ports made explicit; paths name none; two servers of a
// kind are refused with both named.
func TestRequestTarget(t *testing.T) {
	plain, tls, err := RequestTarget(parseRequests(t, "GET http://localhost/a", "GET /b", "POST https://api.test/c", "GET http://localhost:80/d"))
	if err != nil || plain != "http://localhost:80" || tls != "https://api.test:443" {
		t.Fatalf("%q %q %v", plain, tls, err)
	}
	if plain, _, err := RequestTarget(parseRequests(t, "GET http://localhost:8080/a", "GET http://127.0.0.1:8080/b")); err != nil || plain != "http://localhost:8080" {
		t.Fatalf("loopback spelt two ways: %q %v", plain, err)
	}
	if plain, tls, err := RequestTarget(parseRequests(t, "GET /only/paths")); err != nil || plain != "" || tls != "" {
		t.Fatalf("paths: %q %q %v", plain, tls, err)
	}
	_, _, err = RequestTarget(parseRequests(t, "GET http://a.test:8080/", "GET http://b.test:8080/"))
	var oe *OriginsError
	if !errors.As(err, &oe) || !slices.Equal(oe.Origins, []string{"http://a.test:8080", "http://b.test:8080"}) {
		t.Fatalf("two servers: %v", err)
	}
}

// TestCheckRequestTarget: a request naming the target (loopback names
// are one host) passes; another host or port is refused, named as
// written.
func TestCheckRequestTarget(t *testing.T) {
	target := plan.Target{Plain: "http://127.0.0.1:8080/", TLS: "https://127.0.0.1:8443"}
	if err := CheckRequestTarget(parseRequests(t, "GET http://localhost:8080/a", "GET https://[::1]:8443/b", "GET /c"), target); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"GET http://127.0.0.1:9090/x", "GET http://example.test:8080/x", "GET https://127.0.0.1/x"} {
		err := CheckRequestTarget(parseRequests(t, line), target)
		var fe *ForeignOriginError
		if !errors.As(err, &fe) || fe.URL != line[4:] {
			t.Errorf("%s: %v", line, err)
		}
	}
}

// TestResolveTarget: a target given stays and is checked against the
// requests; without one, the servers the requests name become it.
func TestResolveTarget(t *testing.T) {
	reqs := []results.Request{{Method: "GET", Origin: "https://localhost:8443", Path: "/x"}, {Method: "GET", Path: "/y"}}
	got, err := ResolveTarget(reqs, plan.Target{})
	if err != nil || got.Plain != "" || got.TLS != "https://localhost:8443" {
		t.Errorf("no target: %+v, %v; want the TLS server the request names", got, err)
	}
	given := plan.Target{TLS: "https://127.0.0.1:8443/", Insecure: true}
	if got, err := ResolveTarget(reqs, given); err != nil || got != given {
		t.Errorf("the same server, given: %+v, %v; want it as given", got, err)
	}
	if _, err := ResolveTarget(reqs, plan.Target{Plain: "http://127.0.0.1:8080"}); !errors.As(err, new(*ForeignOriginError)) {
		t.Errorf("another target: %v, want a *ForeignOriginError", err)
	}
}
