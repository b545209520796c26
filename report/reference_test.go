package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// TestReferencesSayWhoseCostItIs: h2o with curl keeps h2c at 0.95x h1,
// Go at both ends 0.25x and Go's server with curl 0.26x: the table shows
// each, and the conclusion blames Go's server, not HTTP/2.
func TestReferencesSayWhoseCostItIs(t *testing.T) {
	ref := func(server string, p string, values ...float64) results.ReferenceCell {
		return results.ReferenceCell{Scenario: "download", Server: server, Language: language(server), Client: "curl", Protocol: p, Metric: results.MetricBytesPerSecond, Rounds: values}
	}
	res := &results.Results{
		Cells: []results.Cell{
			{Scenario: "download", Protocol: "h1", Metric: results.MetricBytesPerSecond, Repetitions: []results.Repetition{{Round: 1, Value: 100}, {Round: 2, Value: 100}, {Round: 3, Value: 100}}},
			{Scenario: "download", Protocol: "h2c", Metric: results.MetricBytesPerSecond, Repetitions: []results.Repetition{{Round: 1, Value: 25}, {Round: 2, Value: 25}, {Round: 3, Value: 25}}},
		},
		References: []results.ReferenceCell{
			ref("go", "h1", 100, 100, 100), ref("go", "h2c", 26, 26, 26),
			ref("h2o", "h1", 100, 100, 100), ref("h2o", "h2c", 95, 95, 95),
		},
		PeersMissing: []string{"caddy (apt-get install caddy)"},
	}
	analysis.Summarise(res)
	for i := range res.References {
		c := &res.References[i]
		v, b := analysis.ReferenceValues(*c), analysis.ReferenceValues(res.References[i-i%2])
		if c.Protocol != "h1" {
			iv := analysis.RatioInterval(&v, &b)
			c.VsH1 = &iv
		}
		c.Median = c.Rounds[0]
	}
	analysis.References(res)
	var buf bytes.Buffer
	textReferences(&buf, res)
	out := buf.String()
	for _, want := range []string{
		"reference peers not installed: caddy (apt-get install caddy)",
		"client  go                         go server           h2o",
		"download  h2c  curl    0.25x [0.25, 0.25] slower  0.26x [0.26, 0.26]  0.95x [0.95, 0.95]",
		"with h2o serving and curl as client, h2c reaches 0.95x [0.95, 0.95] h1; Go at both ends 0.25x [0.25, 0.25], Go's server with curl 0.26x [0.26, 0.26]: the gap is Go's server, not HTTP/2",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

// TestReferencesRowPerClient: small-sequential played by h2load (h2c),
// wrk (h1-tls) and oha (h3) is a row per client and transport, each
// client's ratio to its own h1, and a column per server; a server a
// client did not play is blank.
func TestReferencesRowPerClient(t *testing.T) {
	ref := func(server, client, p string, ratio float64) results.ReferenceCell {
		c := results.ReferenceCell{Scenario: "small-sequential", Server: server, Language: language(server), Client: client, Protocol: p, Metric: results.MetricRequestsPerSecond, Rounds: []float64{1000 * ratio}, Median: 1000 * ratio}
		if p != "h1" {
			c.VsH1 = &results.Interval{Ratio: ratio, Low: ratio, High: ratio, Pairs: 1}
		}
		return c
	}
	res := &results.Results{References: []results.ReferenceCell{
		ref("go", "h2load", "h1", 1), ref("go", "h2load", "h2c", 0.7),
		ref("go", "wrk", "h1", 1), ref("go", "wrk", "h1-tls", 0.8),
		ref("go", "oha", "h1", 1), ref("go", "oha", "h3", 0.5),
		ref("caddy", "oha", "h1", 1), ref("caddy", "oha", "h3", 0.4),
	}}
	var buf bytes.Buffer
	textReferences(&buf, res)
	out := buf.String()
	for _, want := range []string{
		"h2load, wrk and oha for requests",
		"client  go  go server  caddy",
		"small-sequential  h2c     h2load      0.70x",
		"                  h1-tls  wrk         0.80x",
		"                  h3      oha         0.50x      0.40x",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	buf.Reset()
	mdReferences(&buf, res)
	if !strings.Contains(buf.String(), "|---|---|---|---:|---:|---:|") || !strings.Contains(buf.String(), "| small-sequential | h2c | h2load |") {
		t.Errorf("markdown:\n%s", buf.String())
	}
}

// TestVerdictWithoutGoRow: with reference peers, the verdict gains a row
// under each scenario they measured: per transport the highest ratio a
// server and client not in Go reached with an interval within ±50% (h2o
// over nginx; caddy is Go, and a one-round figure is no evidence), blank
// where none did; text, Markdown and HTML alike.
func TestVerdictWithoutGoRow(t *testing.T) {
	res := sampleRun()
	ref := func(server, client, p string, ratio float64, pairs int) results.ReferenceCell {
		c := results.ReferenceCell{Scenario: "download", Server: server, Language: language(server), Client: client, Protocol: p, Metric: results.MetricBytesPerSecond, Median: 1e9}
		if p != "h1" {
			c.VsH1 = &results.Interval{Ratio: ratio, Low: ratio * 0.9, High: ratio * 1.1, Pairs: pairs}
		}
		return c
	}
	res.References = []results.ReferenceCell{
		ref("h2o", "curl", "h1", 1, 0), ref("h2o", "curl", "h2c", 1.02, 5),
		ref("nginx", "curl", "h1", 1, 0), ref("nginx", "curl", "h2c", 0.9, 5),
		ref("caddy", "curl", "h1", 1, 0), ref("caddy", "curl", "h2c", 1.5, 5),
		ref("nginx", "curl", "h3", 2, 1),
	}
	analysis.Conclude(res)
	var b bytes.Buffer
	mdVerdict(&b, res)
	if !strings.Contains(b.String(), "|   without Go | 1.02x [0.92, 1.12] h2o/curl |  |") {
		t.Errorf("markdown verdict:\n%s", b.String())
	}
	b.Reset()
	if err := HTML(&b, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "<tr><td>  without Go</td><td>1.02x [0.92, 1.12] h2o/curl</td><td></td></tr>") {
		t.Errorf("html verdict lacks the row")
	}
	res.References = res.References[4:] // caddy's and a one-round nginx figure: no evidence
	b.Reset()
	mdVerdict(&b, res)
	if strings.Contains(b.String(), "without Go") {
		t.Errorf("a row without evidence:\n%s", b.String())
	}
}

// language is what a reference server in these tests is written in, as
// the peers' catalogue says.
func language(server string) string {
	switch server {
	case vocab.ReferenceGo, "caddy":
		return "Go"
	}
	return "C"
}
