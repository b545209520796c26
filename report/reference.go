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

// serverLabel is a reference server's column heading.
func serverLabel(server string) string {
	if server == vocab.ReferenceGo {
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
	servers, rows := res.ReferenceRows()
	refs.head = []string{"", "", "client", "go"}
	for _, srv := range servers {
		refs.head = append(refs.head, serverLabel(srv))
	}
	last := ""
	for _, k := range rows {
		if k.Protocol == protoname.H1 {
			continue // the others' ratios are to it
		}
		row := []string{k.Scenario, k.Protocol, k.Client, cellText(res.Cell(k.Scenario, k.Protocol), "", nil)}
		if k.Scenario == last {
			row[0] = ""
		}
		last = k.Scenario
		for _, srv := range servers {
			row = append(row, refRatio(k.ByServer[srv]))
		}
		refs.rows = append(refs.rows, row)
	}
	refs.why = res.ReferenceConclusions
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

// withoutGoLabel names the verdict's reference rows.
const withoutGoLabel = "  without Go"

// withoutGoRow is the verdict's reference row under scenario: per
// transport, the highest ratio to h1 a server and client not written in
// Go reached (the pair diagnosis.References reads), as "1.02x ±17%
// h2o/curl"; nil when no transport has one.
func withoutGoRow(res *results.Results, scenario string, protos []string) []string {
	row := []string{withoutGoLabel}
	found := false
	for _, p := range protos {
		var best *results.ReferenceCell
		for i := range res.References {
			c := &res.References[i]
			if c.Scenario == scenario && c.Protocol == p && c.WithoutGo && (best == nil || c.VsH1.Ratio > best.VsH1.Ratio) {
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
