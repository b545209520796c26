package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/httpvs/httpvs/peers/peerlang"
	"github.com/httpvs/httpvs/results"
)

// serverLabel is a reference server's column heading.
func serverLabel(server string) string {
	if server == results.ReferenceGo {
		return "go server"
	}
	return server
}

// refRatio is a reference cell's ratio to h1 as a verdict cell shows it.
func refRatio(c *results.ReferenceCell) string {
	switch {
	case c == nil:
		return ""
	case c.Skipped != "":
		return "skipped"
	case c.Median == 0:
		return "failed"
	case c.VsH1 == nil:
		return "no h1"
	}
	return boundsText(*c.VsH1)
}

// references is the reference peers' table: each transport's ratio to h1
// with Go at both ends (from the verdict) and with each reference server,
// a row per scenario, transport and client, and a conclusion per row
// where the peers show one.
type references struct {
	missing string     // the peers not installed, "" if none
	head    []string   // "", "", "client", "go", then a column per server
	rows    [][]string // scenario ("" when it repeats), transport, client, then ratios
	why     []string
}

// referencesOf lays out res's reference peers; nil when it has none.
func referencesOf(res *results.Results) *references {
	if len(res.PeersMissing) == 0 && len(res.References) == 0 {
		return nil
	}
	refs := &references{missing: strings.Join(res.PeersMissing, ", ")}
	if len(res.References) == 0 {
		return refs
	}
	// A row is one client's scenario over one transport, so its cells
	// are keyed by server.
	var servers []string
	type key struct{ scenario, protocol, client string }
	var rows []key
	cells := map[key]map[string]*results.ReferenceCell{}
	for i := range res.References {
		c := &res.References[i]
		if !slices.Contains(servers, c.Server) {
			servers = append(servers, c.Server)
		}
		if c.Protocol == "h1" {
			continue
		}
		k := key{c.Scenario, c.Protocol, c.Client}
		if cells[k] == nil {
			cells[k] = map[string]*results.ReferenceCell{}
			rows = append(rows, k)
		}
		cells[k][c.Server] = c
	}
	refs.head = []string{"", "", "client", "go"}
	for _, srv := range servers {
		refs.head = append(refs.head, serverLabel(srv))
	}
	last := ""
	for _, k := range rows {
		var v verdict
		goCell := res.Cell(k.scenario, k.protocol)
		row := []string{k.scenario, k.protocol, k.client, v.cell(goCell)}
		if k.scenario == last {
			row[0] = ""
		}
		last = k.scenario
		for _, srv := range servers {
			row = append(row, refRatio(cells[k][srv]))
		}
		refs.rows = append(refs.rows, row)
		tlsBase := cells[key{k.scenario, "h1-tls", k.client}]
		if k.protocol != "h2" {
			tlsBase = nil
		}
		if s := refConclusion(k.scenario, k.protocol, goCell, cells[k], tlsBase, servers); s != "" {
			refs.why = append(refs.why, s)
		}
	}
	return refs
}

// referencesTitle introduces the reference table.
const referencesTitle = "reference peers: each transport over h1 with the same server and client - curl for transfers; h2load, wrk and oha for requests (go: Go's client and server, from the verdict)"

// textReferences prints the reference peers' ratios beside Go's, and
// what they say about each gap.
func textReferences(w io.Writer, res *results.Results) {
	refs := referencesOf(res)
	if refs == nil {
		return
	}
	if refs.missing != "" {
		fmt.Fprintf(w, "\nreference peers not installed: %s\n", refs.missing)
	}
	if len(refs.rows) == 0 {
		return
	}
	fmt.Fprintln(w, "\n"+referencesTitle)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, row := range append([][]string{refs.head}, refs.rows...) {
		fmt.Fprintln(tw, "  "+strings.Join(row, "\t")+"\t")
	}
	tw.Flush()
	for _, s := range refs.why {
		fmt.Fprintln(w, "  - "+s)
	}
}

// mdReferences writes the reference table as Markdown.
func mdReferences(w io.Writer, res *results.Results) {
	refs := referencesOf(res)
	if refs == nil {
		return
	}
	if refs.missing != "" {
		fmt.Fprintf(w, "Reference peers not installed: %s\n\n", mdEscape([]string{refs.missing})[0])
	}
	if len(refs.rows) == 0 {
		return
	}
	fmt.Fprintf(w, "### Reference peers\n\n%s\n\n", mdEscape([]string{referencesTitle})[0])
	for i, r := range append([][]string{refs.head}, refs.rows...) {
		fmt.Fprintf(w, "| %s |\n", strings.Join(mdEscape(r), " | "))
		if i == 0 {
			fmt.Fprintf(w, "|---|---|---|%s\n", strings.Repeat("---:|", len(r)-3))
		}
	}
	fmt.Fprintln(w)
	for _, s := range refs.why {
		fmt.Fprintf(w, "- %s\n", mdEscape([]string{s})[0])
	}
	fmt.Fprintln(w)
}

// refConclusion says what the peers show about one cell's gap: whether a
// server and client not written in Go close it (Go's implementation) or
// not (the protocol). Servers in Go (caddy) are no evidence either way.
// tlsBase, for h2, holds the same client's h1-tls cells by server: h2's
// ratio to h1 carries TLS's cost too, and the best server's h1-tls ratio
// splits it off.
func refConclusion(scenario, protocol string, goCell *results.Cell, byServer, tlsBase map[string]*results.ReferenceCell, servers []string) string {
	if goCell == nil || goCell.VsH1 == nil {
		return ""
	}
	var best *results.ReferenceCell
	var goServer *results.ReferenceCell
	for _, srv := range servers {
		c := byServer[srv]
		if c == nil || c.VsH1 == nil || c.Median == 0 {
			continue
		}
		if srv == results.ReferenceGo {
			goServer = c
			continue
		}
		if notGoEvidence(c) && (best == nil || c.VsH1.Ratio > best.VsH1.Ratio) {
			best = c
		}
	}
	if best == nil {
		return ""
	}
	g, b := goCell.VsH1.Ratio, best.VsH1.Ratio
	s := fmt.Sprintf("%s %s: with %s serving and %s as client, %s reaches %.2fx h1; Go at both ends %.2fx", scenario, protocol, best.Server, best.Client, protocol, b, g)
	if goServer != nil {
		s += fmt.Sprintf(", Go's server with %s %.2fx", goServer.Client, goServer.VsH1.Ratio)
	}
	who := "Go's code"
	if goServer != nil {
		switch gs := goServer.VsH1.Ratio; {
		case gs <= g*1.25:
			who = "Go's server"
		case gs >= b*(1-results.StableHalfWidth):
			who = "Go's client"
		}
	}
	switch {
	case b >= 1-results.StableHalfWidth && g < b*(1-results.StableHalfWidth):
		s += fmt.Sprintf(": the gap is %s, not %s", who, protocolName(protocol))
	case b < 1-results.StableHalfWidth && g < b*(1-results.StableHalfWidth):
		s += fmt.Sprintf(": %s costs %.0f%% here even without Go, %s the rest", protocolName(protocol), (1-b)*100, who)
	case b < 1-results.StableHalfWidth:
		s += fmt.Sprintf(": without Go it does no better: the cost is %s's", protocolName(protocol))
	default:
		return ""
	}
	return s + tlsShare(best, tlsBase)
}

// tlsShare splits TLS's part off an h2 conclusion: the best server's
// h1-tls ratio with the same client, and h2's ratio to it (HTTP/2's own
// cost over TLS). "" when that server has no h1-tls figure.
func tlsShare(best *results.ReferenceCell, tlsBase map[string]*results.ReferenceCell) string {
	t := tlsBase[best.Server]
	if t == nil || t.VsH1 == nil || t.Median == 0 || t.VsH1.Ratio <= 0 {
		return ""
	}
	return fmt.Sprintf(" (with %s, h1-tls alone reaches %.2fx h1, so HTTP/2 over TLS is %.2fx h1-tls)", best.Server, t.VsH1.Ratio, best.VsH1.Ratio/t.VsH1.Ratio)
}

// protocolName is what a transport speaks, for sentences.
func protocolName(protocol string) string {
	switch protocol {
	case "h2c":
		return "HTTP/2"
	case "h2":
		return "TLS with HTTP/2"
	case "h3":
		return "HTTP/3"
	case "h1-tls":
		return "TLS"
	}
	return protocol
}

// notGoEvidence says whether c can speak for its transport without Go: a
// server not written in Go (caddy is net/http and quic-go, as httpvs's
// server), a ratio to h1, and an interval of at least two rounds no wider
// than ±50%.
func notGoEvidence(c *results.ReferenceCell) bool {
	return c.VsH1 != nil && c.Median != 0 && peerlang.NotGo(c.Server) &&
		c.VsH1.Pairs >= 2 && c.VsH1.HalfWidth() <= 0.5
}

// withoutGoLabel names the verdict's reference rows.
const withoutGoLabel = "  without Go"

// withoutGoRow is the verdict's reference row under scenario: per
// transport, the highest ratio to h1 a server and client not written in
// Go reached (the pair that refConclusion reads), as "1.02x ±17%
// h2o/curl"; nil when no transport has one.
func withoutGoRow(res *results.Results, scenario string, protos []string) []string {
	row := []string{withoutGoLabel}
	found := false
	for _, p := range protos {
		var best *results.ReferenceCell
		for i := range res.References {
			c := &res.References[i]
			if c.Scenario == scenario && c.Protocol == p && notGoEvidence(c) && (best == nil || c.VsH1.Ratio > best.VsH1.Ratio) {
				best = c
			}
		}
		if best == nil {
			row = append(row, "")
			continue
		}
		found = true
		row = append(row, fmt.Sprintf("%s %s/%s", refRatio(best), best.Server, best.Client))
	}
	if !found {
		return nil
	}
	return row
}

// withoutGoNote explains the verdict's reference rows.
const withoutGoNote = "rows \"without Go\": the same scenario and transport with a reference server and client not written in Go (server/client), over h1 with the same pair: the best such pair, when its interval is within ±50%; the reference table below has every pair"
