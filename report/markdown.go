package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// Markdown writes a matrix run as Markdown: the environment, then a table
// per scenario with the transports as columns, as Matrix does for a
// terminal. A run across Go versions (res.GoVersions) it writes as
// goVersionsMarkdown does.
func Markdown(w io.Writer, res *results.Results) error {
	if res.GoVersions != nil {
		return goVersionsMarkdown(w, res)
	}
	bw := &printer{w: w}
	fmt.Fprintf(bw, "# httpvs run, %s\n\n", res.Started.Format("2006-01-02 15:04:05 MST"))
	fmt.Fprintf(bw, "%s\n\n", runLine(res))
	if res.Partial {
		fmt.Fprintf(bw, "**Partial run**: %s. The cells below are what was measured until then.\n\n", res.PartialReason)
	}
	for _, n := range runNotes(res) {
		fmt.Fprintf(bw, "- %s\n", mdEscape([]string{n})[0])
	}
	if len(runNotes(res)) > 0 {
		fmt.Fprintln(bw)
	}
	if len(res.NotRun) > 0 {
		fmt.Fprintf(bw, "Not run:\n\n")
		for _, n := range res.NotRun {
			fmt.Fprintf(bw, "- %s\n", mdEscape([]string{notRunText(n, nil)})[0])
		}
		fmt.Fprintln(bw)
	}
	if len(res.Sizing) > 0 {
		fmt.Fprintf(bw, "Your requests' rounds, sized from a probe:\n\n")
		for _, s := range res.Sizing {
			fmt.Fprintf(bw, "- %s\n", mdEscape([]string{s})[0])
		}
		fmt.Fprintln(bw)
	}
	mdVerdict(bw, res)
	for _, g := range grids(res) {
		fmt.Fprintf(bw, "## %s\n\n%s\n\n", g.scenario.Name, strings.TrimPrefix(g.title, g.scenario.Name+": "))
		if len(g.rows) > 0 {
			for i, r := range append([][]string{g.head}, g.rows...) {
				fmt.Fprintf(bw, "| %s |\n", strings.Join(mdEscape(r), " | "))
				if i == 0 {
					fmt.Fprintf(bw, "|%s\n", strings.Repeat("---:|", len(r)))
				}
			}
			fmt.Fprintln(bw)
		}
		for _, n := range g.notes {
			fmt.Fprintf(bw, "- %s\n", mdEscape([]string{n})[0])
		}
		if len(g.notes) > 0 {
			fmt.Fprintln(bw)
		}
	}
	browserMarkdown(bw, res)
	if full := fullFixes(res); len(full) > 0 {
		fmt.Fprintf(bw, "## Fixes in full\n\n")
		for _, f := range full {
			fmt.Fprintf(bw, "- %s\n", mdEscape([]string{f})[0])
		}
		fmt.Fprintln(bw)
	}
	fmt.Fprintln(bw, "## Environment")
	fmt.Fprintln(bw)
	for _, kv := range envRows(res) {
		fmt.Fprintf(bw, "- %s: %s\n", kv[0], mdEscape([]string{kv[1]})[0])
	}
	return bw.err
}

// mdEscape escapes the characters that would break a Markdown table cell.
func mdEscape(cells []string) []string {
	out := make([]string, len(cells))
	r := strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "\n", " ")
	for i, c := range cells {
		out[i] = r.Replace(c)
	}
	return out
}

// envRows lists the environment and knobs as name, value pairs.
func envRows(res *results.Results) [][2]string {
	e, s := res.Env, res.Settings
	commit := e.Commit
	if e.Modified {
		commit += " (modified)"
	}
	rows := [][2]string{
		{"httpvs", strings.TrimSpace(e.Version + " " + commit)},
		{"Go", e.GoVersion},
		{"OS/arch", e.OS + "/" + e.Arch + ", kernel " + e.Kernel},
		{"CPU", fmt.Sprintf("%s, %d cores, GOMAXPROCS %d", e.CPUModel, e.Cores, e.GOMAXPROCS)},
		{"started", res.Started.Format("2006-01-02T15:04:05Z07:00")},
		{"finished", res.Finished.Format("2006-01-02T15:04:05Z07:00")},
		{"target", strings.TrimSpace(s.Target + " " + s.TLSTarget)},
		{"repetitions", runRoundsText(res)},
		{"engine", s.Engine},
		{"client knobs", jsonString(s.Client)},
	}
	if s.Server != nil {
		rows = append(rows, [2]string{"server knobs", jsonString(s.Server)})
	}
	if s.Net != nil {
		rows = append(rows, [2]string{"network", NetSummary(s.Net)})
	}
	return rows
}

// jsonString is v as compact JSON, for knobs shown in one line.
func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// mdVerdict writes the verdict first: the first screen's header and
// table (with the reference peers' rows "without Go" under their
// scenario), its A/A, tuned, cause and caveat lines, then the link's
// lines and the reference peers. The words and figures are the first
// screen's (Screen): both format the same fields.
func mdVerdict(w io.Writer, res *results.Results) {
	s := newScreen(res, nil)
	rows, _ := s.tableRows()
	if rows == nil {
		return
	}
	fmt.Fprintf(w, "## Verdict\n\n%s\n\n", mdEscape([]string{s.header()})[0])
	refs := false
	for i, r := range rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(mdEscape(r), " | "))
		if i == 0 {
			fmt.Fprintf(w, "|---|%s\n", strings.Repeat("---:|", len(r)-1))
			continue
		}
		if ref := withoutGoRow(res, r[0], rows[0][1:]); ref != nil {
			fmt.Fprintf(w, "| %s |\n", strings.Join(mdEscape(ref), " | "))
			refs = true
		}
	}
	fmt.Fprintf(w, "\n%s\n\n", mdEscape([]string{mdLegend(s.base)})[0])
	notes := append(append(append(s.aaLine(), s.tunedLine()...), s.causeLines()...), s.caveatLines()...)
	if refs {
		notes = append(notes, withoutGoNote)
	}
	for _, l := range append(notes, linkLines(res)...) {
		fmt.Fprintf(w, "%s  \n", mdEscape([]string{strings.Join(strings.Fields(l), " ")})[0])
	}
	fmt.Fprintln(w)
	mdReferences(w, res)
}

// mdLegend says what the verdict table's cells are, for readers without
// run -h at hand.
func mdLegend(base string) string {
	return fmt.Sprintf("each cell: the transport's throughput or requests per second over %s's (for times, %s's over its), "+
		"geometric mean of the rounds' ratios with its 95%% interval; %s the same within ±%.0f%%, %s undetermined, "+
		"%s machine-bound, %s within the noise floor, %s cut short; a superscript names the main cause below",
		base, base, markSimilar, 100*vocab.Matters, markUndetermined, markMachine, markFloor, markCut)
}
