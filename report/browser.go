package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// browserTable is the real browser's page loads (res.Browser) as rows
// beside page-load's model, and the lines under them: where the browser
// disagreed with the model beyond both intervals, or with the server's
// counters, and the transports it skipped.
type browserTable struct {
	title string
	head  []string
	rows  [][]string
	notes []string
}

// newBrowserTable lays out res.Browser; nil when it is empty.
func newBrowserTable(res *results.Results) *browserTable {
	if len(res.Browser) == 0 {
		return nil
	}
	modelled := false
	for _, c := range res.Browser {
		modelled = modelled || c.Model != nil
	}
	t := &browserTable{head: []string{"transport", "last byte", "vs " + browserBaseline(res.Browser), "model (page-load)", "browser/model", "load event (/model)", "objects (the server's count)"}}
	product, rounds, page := "", 0, ""
	for _, c := range res.Browser {
		page = c.Page
		if c.Browser != "" {
			product = c.Browser
		}
		rounds = max(rounds, len(c.Loads))
		if c.Skipped != "" {
			t.notes = append(t.notes, fmt.Sprintf("%s: not loaded: %s", c.Protocol, c.Skipped))
			continue
		}
		t.rows = append(t.rows, browserRow(c, browserBaseline(res.Browser)))
		t.notes = append(t.notes, browserNotes(c)...)
	}
	if product == "" {
		product = "the browser"
	}
	model := "; the model is page-load above, its repetitions' medians, held to the browser's last byte"
	if !modelled {
		t.dropModel()
		model = ""
		if res.Settings.Net == nil {
			model = "; no model beside it on loopback, where page-load's times are the two processes' CPU with no round trip to schedule"
		}
	}
	t.title = fmt.Sprintf("%s: %s in %s, a fresh browser each load, %d loads a transport in turn; geometric means [95%% interval] of the loads that kept to the transport and to the server's counts; vs %s: its last byte over each transport's, round by round, as the verdict's ratios%s",
		vocab.BrowserScenario, page, product, rounds, browserBaseline(res.Browser), model)
	return t
}

// dropModel takes the model's columns out of t: no cell was held to it.
func (t *browserTable) dropModel() {
	keep := func(row []string) []string {
		out := append([]string(nil), row[:3]...)
		out = append(out, row[5:]...)
		out[3] = strings.TrimSuffix(out[3], " (/model)")
		return out
	}
	t.head = keep(t.head)
	for i := range t.rows {
		t.rows[i] = keep(t.rows[i])
	}
}

// browserBaseline names the transport the browser cells' ratios are to:
// the one their VsBaseline names, else h1.
func browserBaseline(cells []results.BrowserCell) string {
	for _, c := range cells {
		if c.Baseline != "" {
			return c.Baseline
		}
	}
	return protoname.H1
}

// vsBaselineText is c's ratio to the baseline, as the verdict prints a
// cell's: "0.82x [0.70, 0.96] slower"; "1.00x" for the baseline, "-" when
// no round paired.
func vsBaselineText(c results.BrowserCell, baseline string) string {
	iv := c.VsBaseline
	switch {
	case c.Protocol == baseline:
		return "1.00x"
	case iv == nil:
		return "-"
	case iv.Pairs < 2:
		return fmt.Sprintf("%.2fx (1 round)", iv.Ratio)
	}
	return fmt.Sprintf("%.2fx [%.2f, %.2f] %s", iv.Ratio, iv.Low, iv.High, iv.Verdict)
}

// modelText is the browser's last byte over the model's with its interval
// and the verdict's word: "1.88x [1.80, 1.96] slower", "≈ 0.99x [0.93,
// 1.05]"; without an interval, the ratio alone.
func modelText(m results.ModelCheck) string {
	if m.Low <= 0 || m.Verdict == vocab.ModelNone {
		return fmt.Sprintf("%.2fx (%s)", m.Ratio, vocab.ModelNone)
	}
	iv := fmt.Sprintf("%.2fx [%.2f, %.2f]", m.Ratio, m.Low, m.High)
	if m.Verdict == vocab.ModelAgrees {
		return "≈ " + iv
	}
	return iv + " " + m.Verdict
}

// browserRow is c's row: the last byte beside the model's (the figure
// both measure), then the load event.
func browserRow(c results.BrowserCell, baseline string) []string {
	row := []string{c.Protocol, spreadText(c.LastByte), vsBaselineText(c, baseline), "", "", spreadText(c.LoadEvent), objectsText(c)}
	if c.LastByte.N == 0 {
		row[1], row[2], row[5] = "failed", "", ""
		if c.Excluded > 0 {
			row[1] = "excluded"
		}
	}
	if m := c.Model; m != nil {
		row[3] = spreadText(m.Model)
		row[4] = modelText(*m)
		row[5] += fmt.Sprintf(" (%.2fx)", m.LoadEventRatio)
	}
	return row
}

// spreadText is s as "412ms [380ms, 450ms]", or its mean alone without an
// interval.
func spreadText(s results.Spread) string {
	if s.N < 2 {
		return seconds(s.Mean)
	}
	return fmt.Sprintf("%s [%s, %s]", seconds(s.Mean), seconds(s.Low), seconds(s.High))
}

// objectsText says what the browser's loads fetched over which transport
// and on how many connections, with the server's counts: "50 over h2 on
// 1 connection (50, 1)", ranges where loads differed.
func objectsText(c results.BrowserCell) string {
	var objs, conns, sreq, sconn span
	for _, ld := range c.Loads {
		if ld.Error != "" {
			continue
		}
		objs.add(int64(ld.ByTransport[c.Protocol]))
		conns.add(int64(ld.Connections))
		if ld.ServerRequests != nil {
			sreq.add(*ld.ServerRequests)
			sconn.add(*ld.ServerConnections)
		}
	}
	if !objs.set {
		return ""
	}
	noun := "connections"
	if conns.hi == 1 {
		noun = "connection"
	}
	s := fmt.Sprintf("%s over %s on %s %s", objs, c.Protocol, conns, noun)
	if sreq.set {
		s += fmt.Sprintf(" (%s, %s)", sreq, sconn)
	}
	return s
}

// span is the range of some counts.
type span struct {
	lo, hi int64
	set    bool
}

func (s *span) add(v int64) {
	if !s.set || v < s.lo {
		s.lo = v
	}
	if !s.set || v > s.hi {
		s.hi = v
	}
	s.set = true
}

func (s span) String() string {
	if s.lo == s.hi {
		return fmt.Sprint(s.lo)
	}
	return fmt.Sprintf("%d-%d", s.lo, s.hi)
}

// browserNotes are c's lines under the table: a model it disagrees with,
// counters that disagree, loads that failed.
func browserNotes(c results.BrowserCell) []string {
	var notes []string
	if m := c.Model; m != nil && (m.Verdict == vocab.ModelSlower || m.Verdict == vocab.ModelFaster) {
		notes = append(notes, fmt.Sprintf("%s: the browser's last byte comes %.2fx [%.2f, %.2f] the model's time (%s against %s): the model leaves out what the browser does before its last byte (scheduling its requests, its own network stack)",
			c.Protocol, m.Ratio, m.Low, m.High, spreadText(c.LastByte), spreadText(m.Model)))
	}
	if c.Disagrees != "" {
		notes = append(notes, fmt.Sprintf("%s: %d of %d loads left out of the figures: the browser and the server disagree: %s", c.Protocol, c.Excluded, len(c.Loads), c.Disagrees))
	}
	failed, first := 0, ""
	for _, ld := range c.Loads {
		if ld.Error != "" {
			if failed == 0 {
				first = ld.Error
			}
			failed++
		}
	}
	if failed > 0 {
		notes = append(notes, fmt.Sprintf("%s: %d of %d loads failed; first: %s", c.Protocol, failed, len(c.Loads), first))
	}
	return notes
}

// browserText prints res.Browser as text, if there is any.
func browserText(w io.Writer, res *results.Results) {
	t := newBrowserTable(res)
	if t == nil {
		return
	}
	fmt.Fprintf(w, "\n%s\n", t.title)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range append([][]string{t.head}, t.rows...) {
		fmt.Fprintf(tw, "  %s\t\n", strings.Join(r, "\t"))
	}
	tw.Flush()
	for _, n := range t.notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
}

// browserMarkdown prints res.Browser as Markdown, if there is any.
func browserMarkdown(w io.Writer, res *results.Results) {
	t := newBrowserTable(res)
	if t == nil {
		return
	}
	fmt.Fprintf(w, "## %s\n\n%s\n\n", vocab.BrowserScenario, strings.TrimPrefix(t.title, vocab.BrowserScenario+": "))
	for i, r := range append([][]string{t.head}, t.rows...) {
		fmt.Fprintf(w, "| %s |\n", strings.Join(mdEscape(r), " | "))
		if i == 0 {
			fmt.Fprintf(w, "|%s\n", strings.Repeat("---|", len(r)))
		}
	}
	fmt.Fprintln(w)
	for _, n := range t.notes {
		fmt.Fprintf(w, "- %s\n", mdEscape([]string{n})[0])
	}
	if len(t.notes) > 0 {
		fmt.Fprintln(w)
	}
}
