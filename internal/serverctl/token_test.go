package serverctl_test

import (
	"errors"
	"net"
	"testing"

	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/transport"
)

// TestTokenTravelsSafely: the token goes over TLS, to loopback, or inside
// a namespace of our own; never in cleartext beyond loopback.
func TestTokenTravelsSafely(t *testing.T) {
	var ns transport.Network = ownNamespace{}
	for _, tc := range []struct {
		url     string
		network transport.Network
		want    bool
	}{
		{"http://127.0.0.1:8080", nil, true},
		{"http://127.9.9.9:8080", nil, true},
		{"http://[::1]:8080", nil, true},
		{"http://localhost:8080", nil, true},
		{"http://LOCALHOST:8080", nil, true},
		{"https://198.51.100.7:8443", nil, true},
		{"http://10.99.0.2:8080", ns, true},
		{"http://198.51.100.7:8080", nil, false},
		{"http://example.com", nil, false},
		{"http://localhost.example.com", nil, false},
		{"http://0.0.0.0:8080", nil, false},
		{"://bad", nil, false},
	} {
		if got := serverctl.TokenTravelsSafely(tc.url, tc.network); got != tc.want {
			t.Errorf("TokenTravelsSafely(%q, ns=%v) = %v, want %v", tc.url, tc.network != nil, got, tc.want)
		}
	}
}

// TestProfilerRefusesCleartextToken: profiles of a cleartext server beyond
// loopback are refused before any request (so no token is sent), with a
// *CleartextTokenError; a loopback one is accepted.
func TestProfilerRefusesCleartextToken(t *testing.T) {
	_, err := serverctl.NewProfiler(t.TempDir(), "http://198.51.100.7:8080", nil, nil)
	var ce *serverctl.CleartextTokenError
	if !errors.As(err, &ce) || ce.URL != "http://198.51.100.7:8080" {
		t.Fatalf("NewProfiler of a remote cleartext server: %v, want a *CleartextTokenError", err)
	}
	if _, err := serverctl.NewProfiler(t.TempDir(), "http://"+net.JoinHostPort("127.0.0.1", "1"), nil, nil); err != nil {
		t.Fatalf("NewProfiler of a loopback server: %v", err)
	}
}

// ownNamespace stands for a namespace this process made.
type ownNamespace struct{}

func (ownNamespace) Run(fn func() error) error { return fn() }
