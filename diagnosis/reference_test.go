package diagnosis

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestReferencesGoServersConcludeNothing: caddy is Go (net/http, quic-go),
// so its h3 ratio beside oha says nothing about Go's cost; h2o's does.
func TestReferencesGoServersConcludeNothing(t *testing.T) {
	goCell := &results.Cell{VsH1: &results.Interval{Ratio: 0.5, Low: 0.45, High: 0.55, Pairs: 3}}
	cell := func(server string, ratio float64) *results.ReferenceCell {
		return &results.ReferenceCell{Server: server, Language: map[string]string{"caddy": "Go", "h2o": "C"}[server], Client: "oha", Median: 1, VsH1: &results.Interval{Ratio: ratio, Low: ratio - 0.01, High: ratio + 0.01, Pairs: 3}}
	}
	byServer := map[string]*results.ReferenceCell{"caddy": cell("caddy", 1)}
	if s := refConclusion("small-sequential", "h3", goCell, byServer, nil, []string{"caddy"}); s != "" {
		t.Fatalf("concluded from caddy: %q", s)
	}
	byServer["h2o"] = cell("h2o", 1)
	if s := refConclusion("small-sequential", "h3", goCell, byServer, nil, []string{"caddy", "h2o"}); !strings.Contains(s, "with h2o serving") {
		t.Fatalf("conclusion %q: want h2o's", s)
	}
}

// TestReferencesH2SplitsTLS: h2's ratio to h1 carries TLS's cost, so its
// conclusion names both and splits TLS off with the same server's h1-tls
// (h2o, curl: h1-tls 0.44x, h2 0.39x, so HTTP/2 over TLS 0.89x h1-tls).
func TestReferencesH2SplitsTLS(t *testing.T) {
	goCell := &results.Cell{VsH1: &results.Interval{Ratio: 0.2, Low: 0.18, High: 0.22, Pairs: 5}}
	cell := func(server, p string, ratio float64) *results.ReferenceCell {
		return &results.ReferenceCell{Server: server, Language: "C", Client: "curl", Protocol: p, Median: 1, VsH1: &results.Interval{Ratio: ratio, Low: ratio - 0.02, High: ratio + 0.02, Pairs: 5}}
	}
	byServer := map[string]*results.ReferenceCell{"h2o": cell("h2o", "h2", 0.39)}
	tlsBase := map[string]*results.ReferenceCell{"h2o": cell("h2o", "h1-tls", 0.44)}
	s := refConclusion("download", "h2", goCell, byServer, tlsBase, []string{"h2o"})
	want := "download h2: with h2o serving and curl as client, h2 reaches 0.39x h1; Go at both ends 0.20x: TLS with HTTP/2 costs 61% here even without Go, Go's code the rest (with h2o, h1-tls alone reaches 0.44x h1, so HTTP/2 over TLS is 0.89x h1-tls)"
	if s != want {
		t.Fatalf("conclusion\n got %q\nwant %q", s, want)
	}
	if s := refConclusion("download", "h2", goCell, byServer, nil, []string{"h2o"}); strings.Contains(s, "h1-tls alone") || !strings.Contains(s, "TLS with HTTP/2 costs 61%") {
		t.Fatalf("without an h1-tls figure: %q", s)
	}
}
