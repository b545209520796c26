package analysis

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestReferencesGoServersConcludeNothing: caddy is Go (net/http, quic-go),
// so its h3 ratio beside oha says nothing about Go's cost; h2o's does.
func TestReferencesGoServersConcludeNothing(t *testing.T) {
	goCell := &results.Cell{VsBaseline: &results.Interval{Ratio: 0.5, Low: 0.45, High: 0.55, Pairs: 3}}
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
	goCell := &results.Cell{VsBaseline: &results.Interval{Ratio: 0.2, Low: 0.18, High: 0.22, Pairs: 5}}
	cell := func(server, p string, ratio float64) *results.ReferenceCell {
		return &results.ReferenceCell{Server: server, Language: "C", Client: "curl", Protocol: p, Median: 1, VsH1: &results.Interval{Ratio: ratio, Low: ratio - 0.02, High: ratio + 0.02, Pairs: 5}}
	}
	byServer := map[string]*results.ReferenceCell{"h2o": cell("h2o", "h2", 0.39)}
	tlsBase := map[string]*results.ReferenceCell{"h2o": cell("h2o", "h1-tls", 0.44)}
	s := refConclusion("download", "h2", goCell, byServer, tlsBase, []string{"h2o"})
	want := "download h2: with h2o serving and curl as client, h2 reaches 0.39x [0.37, 0.41] h1; Go at both ends 0.20x [0.18, 0.22]: TLS with HTTP/2 costs 61% here even without Go, Go's code the rest (with h2o, h1-tls alone reaches 0.44x h1, so HTTP/2 over TLS is 0.89x h1-tls)"
	if s != want {
		t.Fatalf("conclusion\n got %q\nwant %q", s, want)
	}
	if s := refConclusion("download", "h2", goCell, byServer, nil, []string{"h2o"}); strings.Contains(s, "h1-tls alone") || !strings.Contains(s, "TLS with HTTP/2 costs 61%") {
		t.Fatalf("without an h1-tls figure: %q", s)
	}
}

// TestReferencesHeldToIntervals: a conclusion stands only on intervals
// that separate: Go's gap to the peer needs Go's interval below the
// peer's, the peer's reaching h1 needs its interval to reach within 10%
// of 1; the best peer is the one whose interval's low end is highest,
// not whose point is.
func TestReferencesHeldToIntervals(t *testing.T) {
	iv := func(r, lo, hi float64) *results.Interval {
		return &results.Interval{Ratio: r, Low: lo, High: hi, Pairs: 5}
	}
	cell := func(server string, v *results.Interval) *results.ReferenceCell {
		return &results.ReferenceCell{Server: server, Language: "C", Client: "curl", Median: 1, VsH1: v}
	}
	for _, tc := range []struct {
		name   string
		goIv   *results.Interval
		peers  map[string]*results.Interval
		want   string // "" for no conclusion
		server string
	}{
		{"apart: Go's gap", iv(0.5, 0.45, 0.55), map[string]*results.Interval{"h2o": iv(1.0, 0.95, 1.05)}, "the gap is Go's code, not HTTP/2", "h2o"},
		{"overlapping: nothing to conclude", iv(0.8, 0.6, 1.0), map[string]*results.Interval{"h2o": iv(0.95, 0.7, 1.2)}, "", ""},
		{"a lucky point loses to a steady peer", iv(0.5, 0.45, 0.55), map[string]*results.Interval{"h2o": iv(1.1, 0.75, 1.6), "nginx": iv(0.98, 0.94, 1.02)}, "the gap is Go's code", "nginx"},
		// A peer whose interval merely touches 0.9 is not shown at h1:
		// it is shown below h1, so part of the cost is the protocol's.
		{"a peer touching 0.9 is not at h1", iv(0.5, 0.45, 0.55), map[string]*results.Interval{"h2o": iv(0.85, 0.7, 0.95)}, "HTTP/2 costs 15% here even without Go", "h2o"},
		// Neither at h1 nor below it: whose the gap is, the rounds cannot say.
		{"a peer straddling 0.9 and 1: nothing to conclude", iv(0.5, 0.45, 0.55), map[string]*results.Interval{"h2o": iv(0.95, 0.8, 1.1)}, "", ""},
		{"one pair on a side: no interval", &results.Interval{Ratio: 0.5, Pairs: 1}, map[string]*results.Interval{"h2o": iv(1.0, 0.95, 1.05)}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			byServer := map[string]*results.ReferenceCell{}
			var servers []string
			for srv, v := range tc.peers {
				byServer[srv] = cell(srv, v)
				servers = append(servers, srv)
			}
			s := refConclusion("download", "h2c", &results.Cell{VsBaseline: tc.goIv}, byServer, nil, servers)
			if (tc.want == "") != (s == "") || !strings.Contains(s, tc.want) || !strings.Contains(s, tc.server) {
				t.Errorf("conclusion %q: want %q with %s", s, tc.want, tc.server)
			}
		})
	}
}
