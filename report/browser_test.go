package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// browserResults is a run with the browser beside page-load: h1 the
// baseline, h2's last byte agrees with its model, h3's is slower than it
// and one of its loads disagrees with the server (left out: two rounds
// paired with h1's), h2c was skipped.
func browserResults() *results.Results {
	n := func(v int64) *int64 { return &v }
	load := func(round int, proto string, secs float64, conns int64) results.BrowserLoad {
		return results.BrowserLoad{Round: round, LoadEventSeconds: secs, LastByteSeconds: secs - 0.01, Objects: 50,
			ByTransport: map[string]int{proto: 50}, Connections: int(conns), ServerRequests: n(50), ServerConnections: n(conns), ServerOther: n(0)}
	}
	bad := load(3, "h3", 0.9, 1)
	bad.ServerConnections = n(2)
	res := &results.Results{Browser: []results.BrowserCell{
		{Protocol: "h1", Browser: "Chrome/156.0.8078.79", Page: "page-load's page", Objects: 50,
			LoadEvent: results.Spread{Mean: 0.51, Low: 0.49, High: 0.53, N: 3}, LastByte: results.Spread{Mean: 0.50, Low: 0.48, High: 0.52, N: 3},
			Loads: []results.BrowserLoad{load(1, "h1", 0.5, 6), load(2, "h1", 0.52, 6), load(3, "h1", 0.51, 6)}},
		{Protocol: "h2c", Skipped: "browsers do not speak h2c (HTTP/2 without TLS)", Page: "page-load's page"},
		{Protocol: "h2", Browser: "Chrome/156.0.8078.79", Page: "page-load's page", Objects: 50,
			LoadEvent: results.Spread{Mean: 0.612, Low: 0.553, High: 0.677, N: 2}, LastByte: results.Spread{Mean: 0.594, Low: 0.55, High: 0.64, N: 2},
			Model: &results.ModelCheck{Model: results.Spread{Mean: 0.600, Low: 0.5, High: 0.7, N: 2}, Ratio: 0.99, Low: 0.90, High: 1.09, LoadEventRatio: 1.02, Verdict: vocab.ModelAgrees},
			Loads: []results.BrowserLoad{load(1, "h2", 0.6, 1), load(2, "h2", 0.62, 1)}},
		{Protocol: "h3", Browser: "Chrome/156.0.8078.79", Page: "page-load's page", Objects: 50,
			LoadEvent: results.Spread{Mean: 0.661, Low: 0.596, High: 0.734, N: 2}, LastByte: results.Spread{Mean: 0.650, Low: 0.62, High: 0.68, N: 2},
			Model:     &results.ModelCheck{Model: results.Spread{Mean: 0.345, Low: 0.344, High: 0.346, N: 2}, Ratio: 1.88, Low: 1.80, High: 1.97, LoadEventRatio: 1.92, Verdict: vocab.ModelSlower},
			Disagrees: "the server counted 2 connections, the browser 1", Excluded: 1,
			Loads: []results.BrowserLoad{load(1, "h3", 0.65, 1), load(2, "h3", 0.67, 1), bad}},
	}}
	analysis.SetBrowserVerdict(res.Browser)
	return res
}

func TestBrowserText(t *testing.T) {
	var b bytes.Buffer
	browserText(&b, browserResults())
	out := b.String()
	for _, want := range []string{
		"browser-page-load: page-load's page in Chrome/156.0.8078.79, a fresh browser each load, 3 loads a transport",
		"594ms [550ms, 640ms]  0.83x [0.80, 0.87] slower  600ms [500ms, 700ms]  ≈ 0.99x [0.90, 1.09]       612ms [553ms, 677ms] (1.02x)",
		"h3         650ms [620ms, 680ms]  0.77x [0.73, 0.82] slower",
		"h1         500ms [480ms, 520ms]  1.00x ",
		"1.88x [1.80, 1.97] slower",
		"50 over h2 on 1 connection (50, 1)",
		"50 over h3 on 1 connection (50, 1-2)",
		"note: h2c: not loaded: browsers do not speak h2c",
		"note: h3: the browser's last byte comes 1.88x [1.80, 1.97] the model's time (650ms [620ms, 680ms] against",
		"note: h3: 1 of 3 loads left out of the figures: the browser and the server disagree: the server counted 2 connections",
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
	if !strings.Contains(md.String(), "## browser-page-load") || !strings.Contains(md.String(), "| h3 | 650ms [620ms, 680ms] | 0.77x [0.73, 0.82] slower | 345ms [344ms, 346ms] | 1.88x [1.80, 1.97] slower | 661ms [596ms, 734ms] (1.92x) |") {
		t.Errorf("Markdown:\n%s", md.String())
	}
	// On loopback no cell is held to the model: its columns go, and the
	// title says why once.
	loop := browserResults()
	for i := range loop.Browser {
		loop.Browser[i].Model = nil
	}
	var lb bytes.Buffer
	browserText(&lb, loop)
	if l := lb.String(); strings.Contains(l, "browser/model") || strings.Count(l, "no model beside it on loopback") != 1 ||
		!strings.Contains(l, "h2         594ms [550ms, 640ms]  0.83x [0.80, 0.87] slower  612ms [553ms, 677ms]  50 over h2") {
		t.Errorf("on loopback:\n%s", l)
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
		`<section id="browser-page-load">`, "<td>661ms [596ms, 734ms] (1.92x)</td>", "the browser and the server disagree",
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
