package peerlang

import "testing"

// NotGo is what report's reference rows rest on: a known peer not in Go.
// (package peers' catalog test checks that every peer has a language.)
func TestNotGo(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"h2o", true},
		{" NGINX ", true},
		{"oha", true},
		{"caddy", false}, // Go: net/http and quic-go, as httpvs's server
		{"go", false},    // results.ReferenceGo, the run's own server
		{"unknown", false},
		{"", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := NotGo(tc.name); got != tc.want {
				t.Fatalf("NotGo(%q) = %v, want %v", tc.name, got, tc.want)
			}
		})
	}
}
