package server

import (
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/transport"
)

// TestGuard holds POST /stats/reset and the profile routes to the token:
// open on loopback without one; refused (403) beyond loopback without one;
// with one, 401 without the header, 403 with another token, 200 with it.
// GET /stats stays open throughout.
func TestGuard(t *testing.T) {
	cases := []struct {
		name    string
		opts    Options
		header  string
		reset   int
		message string
	}{
		{"loopback, no token", Options{}, "", http.StatusOK, ""},
		{"exposed, no token", Options{Exposed: true}, "Bearer x", http.StatusForbidden, "started without a token"},
		{"exposed, token, none sent", Options{Exposed: true, Token: "s3cret"}, "", http.StatusUnauthorized, "Authorization: Bearer TOKEN"},
		{"exposed, token, another sent", Options{Exposed: true, Token: "s3cret"}, "Bearer s3cre", http.StatusForbidden, "not this server's"},
		{"exposed, token, sent", Options{Exposed: true, Token: "s3cret"}, "Bearer s3cret", http.StatusOK, ""},
		{"loopback, token, none sent", Options{Token: "s3cret"}, "", http.StatusUnauthorized, "Authorization: Bearer TOKEN"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Profiling = true
			h := New(tc.opts).Handler()
			hdr := http.Header{}
			if tc.header != "" {
				hdr.Set("Authorization", tc.header)
			}
			if rec := do(t, h, "GET", "/stats", nil, nil); rec.Code != http.StatusOK {
				t.Fatalf("GET /stats: %d", rec.Code)
			}
			for _, route := range []struct{ method, path string }{{"POST", "/stats/reset"}, {"GET", "/debug/profile/heap"}} {
				rec := do(t, h, route.method, route.path, nil, hdr)
				if rec.Code != tc.reset || !strings.Contains(rec.Body.String(), tc.message) {
					t.Errorf("%s %s: %d %q, want %d saying %q", route.method, route.path, rec.Code, rec.Body, tc.reset, tc.message)
				}
			}
		})
	}
}

// TestStartExposedBeyondLoopback starts a server on every interface: its
// reset is refused without a token, though it was not told it is exposed.
func TestStartExposedBeyondLoopback(t *testing.T) {
	srv, err := Start(Config{Transport: transport.ServerOptions{Listen: "0.0.0.0:0", NoH3: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	url := strings.Replace(srv.Transport.URL(transport.H1), "0.0.0.0", "127.0.0.1", 1)
	resp, err := http.Post(url+"/stats/reset", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("reset of a server on 0.0.0.0 without a token: %d, want 403", resp.StatusCode)
	}
}

func TestBeyondLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"": false, "127.0.0.1:8080": false, "[::1]:80": false, "localhost:1": false,
		":8080": true, "0.0.0.0:8080": true, "[::]:1": true, "198.18.0.2:0": true, "example.com:80": true, "junk": true,
	} {
		if got := beyondLoopback(addr); got != want {
			t.Errorf("BeyondLoopback(%q) = %v, want %v", addr, got, want)
		}
	}
}

// TestLoopbackHost: the one test of loopback agrees with BeyondLoopback
// on every host, localhost in any case included.
func TestLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1": true, "127.8.9.10": true, "::1": true, "localhost": true, "LOCALHOST": true, "LocalHost": true,
		"": false, "0.0.0.0": false, "::": false, "198.18.0.2": false, "example.com": false, "localhost.example.com": false,
	} {
		if got := dial.LoopbackHost(host); got != want {
			t.Errorf("dial.LoopbackHost(%q) = %v, want %v", host, got, want)
		}
		if host != "" && beyondLoopback(net.JoinHostPort(host, "80")) == want {
			t.Errorf("BeyondLoopback(%q) disagrees with LoopbackHost", host)
		}
	}
}

// TestHeapProfileThrottlesGC: many heap profiles fetched at once collect
// garbage once, not once each.
func TestHeapProfileThrottlesGC(t *testing.T) {
	s := New(Options{Profiling: true})
	h := s.Handler()
	for range 50 {
		if rec := do(t, h, "GET", "/debug/profile/heap", nil, nil); rec.Code != http.StatusOK || rec.Body.Len() == 0 {
			t.Fatalf("GET /debug/profile/heap: %d, %d bytes", rec.Code, rec.Body.Len())
		}
	}
	s.profiler.mu.Lock()
	gcs := s.profiler.gcs
	s.profiler.mu.Unlock()
	// 50 fetches in well under the interval on any machine... or a few
	// intervals on a very slow one: never one each.
	if gcs < 1 || gcs > 10 {
		t.Fatalf("%d garbage collections for 50 heap profiles, want 1 (a few at most)", gcs)
	}
}
