package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// browserResults is a run with the browser beside page-load: h2 agrees
// with its model, h3 is slower than it and disagrees with the server, h2c
// was skipped.
func browserResults() *results.Results {
	n := func(v int64) *int64 { return &v }
	load := func(round int, proto string, secs float64, conns int64) results.BrowserLoad {
		return results.BrowserLoad{Round: round, LoadEventSeconds: secs, LastByteSeconds: secs - 0.01, Objects: 50,
			ByTransport: map[string]int{proto: 50}, Connections: int(conns), ServerRequests: n(50), ServerConnections: n(conns), ServerOther: n(0)}
	}
	return &results.Results{Browser: []results.BrowserCell{
		{Protocol: "h2c", Skipped: "browsers do not speak h2c (HTTP/2 without TLS)", Page: "page-load's page"},
		{Protocol: "h2", Browser: "Chrome/156.0.8078.79", Page: "page-load's page", Objects: 50,
			LoadEvent: results.Spread{Mean: 0.612, Low: 0.553, High: 0.677, N: 2}, LastByte: results.Spread{Mean: 0.594, N: 2},
			Model: &results.ModelCheck{Model: results.Spread{Mean: 0.600, Low: 0.5, High: 0.7, N: 2}, Ratio: 1.02, Verdict: results.ModelAgrees},
			Loads: []results.BrowserLoad{load(1, "h2", 0.6, 1), load(2, "h2", 0.62, 1)}},
		{Protocol: "h3", Browser: "Chrome/156.0.8078.79", Page: "page-load's page", Objects: 50,
			LoadEvent: results.Spread{Mean: 0.661, Low: 0.596, High: 0.734, N: 2}, LastByte: results.Spread{Mean: 0.650, N: 2},
			Model:     &results.ModelCheck{Model: results.Spread{Mean: 0.345, Low: 0.344, High: 0.346, N: 2}, Ratio: 1.92, Verdict: results.ModelSlower},
			Disagrees: "the server counted 2 connections, the browser 1",
			Loads:     []results.BrowserLoad{load(1, "h3", 0.65, 1), load(2, "h3", 0.67, 2)}},
	}}
}

func TestBrowserText(t *testing.T) {
	var b bytes.Buffer
	browserText(&b, browserResults())
	out := b.String()
	for _, want := range []string{
		"browser-page-load: page-load's page in Chrome/156.0.8078.79, a fresh browser each load, 2 loads a transport",
		"h2         612ms [553ms, 677ms]",
		"1.02x agrees",
		"1.92x slower",
		"50 over h2 on 1 connection (50, 1)",
		"50 over h3 on 1-2 connections (50, 1-2)",
		"note: h2c: not loaded: browsers do not speak h2c",
		"note: h3: the browser loads the page 1.92x the model's time, beyond both intervals",
		"note: h3: the browser and the server disagree: the server counted 2 connections",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "note: h2:") {
		t.Errorf("a note for h2, which agrees:\n%s", out)
	}
	var md bytes.Buffer
	browserMarkdown(&md, browserResults())
	if !strings.Contains(md.String(), "## browser-page-load") || !strings.Contains(md.String(), "| h3 | 661ms [596ms, 734ms] |") {
		t.Errorf("Markdown:\n%s", md.String())
	}
	var none bytes.Buffer
	browserText(&none, &results.Results{})
	if none.Len() != 0 {
		t.Errorf("a run without the browser printed %q", none.String())
	}
}

// TestHTMLHasBrowserNotRunAndSizing: report.html has the browser's table
// and notes, what the target lacked and how the user's requests were
// sized, as the text report does; none of them without them.
func TestHTMLHasBrowserNotRunAndSizing(t *testing.T) {
	res := browserResults()
	res.NotRun = []results.NotRun{{Protocol: "h2c", Reason: "h2c prior knowledge refused by this server"}}
	res.Sizing = []string{"request-1: 1 round(s), not 8"}
	var b bytes.Buffer
	if err := HTML(&b, res); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		`<section id="browser-page-load">`, "<td>661ms [596ms, 734ms]</td>", "the browser and the server disagree",
		"<li>h2c: h2c prior knowledge refused by this server</li>", "<li>request-1: 1 round(s), not 8</li>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	b.Reset()
	if err := HTML(&b, &results.Results{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "browser-page-load") || strings.Contains(b.String(), "Not run") || strings.Contains(b.String(), "sized from a probe") {
		t.Errorf("an empty run's report.html has them:\n%s", b.String())
	}
}
