package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/httpvs/httpvs/results"
)

// goView is a run across Go toolchains (results.GoVersions) laid out once
// for the text, Markdown and HTML renderers.
type goView struct {
	title      string
	toolchains [][]string // toolchain, what the binary says and how it was built (or why not measured)
	base       string     // the transport ratios are to
	// head, rows and grid are the verdict: a row per scenario and
	// toolchain ("download go1.24.13"), a column per transport other than
	// base, each cell's ratio to base built by the same toolchain.
	head []string
	rows [][]string
	grid [][]*results.Cell
	// figHead and figRows are the figures themselves, every transport.
	figHead []string
	figRows [][]string
	// chHead, chRows and chGrid are the changes between toolchains: per
	// scenario and pair, each transport's figure and (but the base's)
	// its ratio to base, later over earlier.
	chHead []string
	chRows [][]string
	chGrid [][]*results.Interval
	// notMeasured are GoVersions.NotMeasured.
	notMeasured []string
	// order is the toolchains measured, in the order listed; scenarios and
	// protocols as the cells have them.
	order, scenarios, protocols []string
}

// goVersionsTitle explains the verdict's numbers.
const goVersionsTitle = "each transport's throughput or req/s over %s's built by the same toolchain, geometric mean of the rounds' ratios with its 95%% interval; ≈ %s where the interval holds 1"

// goChangesTitle explains the changes' numbers.
const goChangesTitle = "change from toolchain to toolchain: the later's figure (or ratio to %s) over the earlier's, paired by round, with its 95%% interval; above 1 the later is faster"

func newGoView(res *results.Results) goView {
	gv := res.GoVersions
	v := goView{base: res.Settings.BaselineProtocol(), notMeasured: gv.NotMeasured}
	s := res.Settings
	v.title = fmt.Sprintf("httpvs run --go %s: a server and a client built by each toolchain from one program (Go as shipped in each), on loopback; %s/%s, %s, %d cores; %s, %s each",
		res.Env.Version, res.Env.OS, res.Env.Arch, res.Env.CPUModel, res.Env.Cores, roundsText(s), seconds(s.DurationSeconds))
	for _, tc := range gv.Toolchains {
		v.toolchains = append(v.toolchains, []string{tc.Name(), toolchainText(tc)})
		if tc.Error == "" {
			v.order = append(v.order, tc.Toolchain)
		}
	}
	cells := map[[3]string]*results.Cell{}
	seen := map[string]bool{}
	for i := range gv.Cells {
		c := &gv.Cells[i]
		cells[[3]string{c.Scenario, c.Toolchain, c.Protocol}] = &c.Cell
		if !seen["s"+c.Scenario] {
			seen["s"+c.Scenario] = true
			v.scenarios = append(v.scenarios, c.Scenario)
		}
		if !seen["p"+c.Protocol] {
			seen["p"+c.Protocol] = true
			v.protocols = append(v.protocols, c.Protocol)
		}
	}
	v.head, v.figHead = []string{""}, append([]string{""}, v.protocols...)
	for _, p := range v.protocols {
		if p != v.base {
			v.head = append(v.head, p)
		}
	}
	for _, sc := range v.scenarios {
		for _, tc := range v.order {
			name := sc + " " + tc
			row, fig := []string{name}, []string{name}
			var line []*results.Cell
			for _, p := range v.protocols {
				c := cells[[3]string{sc, tc, p}]
				fig = append(fig, figureText(c))
				if p != v.base {
					row, line = append(row, cellText(c, v.base, nil)), append(line, c)
				}
			}
			v.rows, v.grid, v.figRows = append(v.rows, row), append(v.grid, line), append(v.figRows, fig)
		}
	}
	v.changes(gv)
	return v
}

// changes lays out gv's changes: a row per scenario and pair of
// toolchains, a column per transport's figure, then per ratio to base.
func (v *goView) changes(gv *results.GoVersions) {
	type pair struct{ sc, from, to string }
	var pairs []pair
	byPair := map[pair]map[string]results.GoVersionChange{}
	for _, ch := range gv.Changes {
		k := pair{ch.Scenario, ch.From, ch.To}
		if byPair[k] == nil {
			byPair[k] = map[string]results.GoVersionChange{}
			pairs = append(pairs, k)
		}
		byPair[k][ch.Protocol] = ch
	}
	if len(pairs) == 0 {
		return
	}
	v.chHead = append([]string{""}, v.protocols...)
	for _, p := range v.protocols {
		if p != v.base {
			v.chHead = append(v.chHead, p+"/"+v.base)
		}
	}
	for _, k := range pairs {
		row := []string{fmt.Sprintf("%s %s -> %s", k.sc, k.from, k.to)}
		var line []*results.Interval
		for _, p := range v.protocols {
			ch, ok := byPair[k][p]
			var iv *results.Interval
			if ok {
				iv = &ch.Figure
			}
			row, line = append(row, changeText(iv)), append(line, iv)
		}
		for _, p := range v.protocols {
			if p != v.base {
				iv := byPair[k][p].Ratio
				row, line = append(row, changeText(iv)), append(line, iv)
			}
		}
		v.chRows, v.chGrid = append(v.chRows, row), append(v.chGrid, line)
	}
}

// toolchainText says what a toolchain's binary reported and how it was
// built, or why it was not measured.
func toolchainText(tc results.GoToolchain) string {
	if tc.Error != "" && tc.BinaryGo == "" {
		return "not measured: " + tc.Error
	}
	built := "binary cached"
	if !tc.Cached {
		built = "built in " + seconds(tc.BuildSeconds)
	}
	text := fmt.Sprintf("binary reports %s; h2c over %s; %s", tc.BinaryGo, tc.H2C, built)
	if tc.Asked == "installed" {
		text = "the go command on PATH; " + text
	}
	if tc.Error != "" {
		text += "; " + tc.Error
	}
	return text
}

// figureText is a cell's median, or why there is none.
func figureText(c *results.Cell) string {
	switch {
	case c == nil:
		return ""
	case c.Skipped != "":
		return "skipped: " + c.Skipped
	case c.Median == 0:
		return "-"
	}
	return metricValue(c.Metric, c.Median)
}

// changeText is a change with its interval as bounds: "1.27x [1.16,
// 1.39] faster", "≈ 0.98x [0.93, 1.03]".
func changeText(iv *results.Interval) string {
	switch {
	case iv == nil || iv.Pairs == 0:
		return "-"
	case iv.Verdict == results.VerdictUnknown:
		return fmt.Sprintf("%.2fx (1 round)", iv.Ratio)
	case iv.Verdict == results.VerdictSimilar:
		return "≈ " + boundsText(*iv)
	}
	return boundsText(*iv) + " " + iv.Verdict
}

// GoVersions writes a run across Go toolchains (httpvs run --go) as
// text: the toolchains, the verdict (a row per scenario and toolchain),
// the changes between toolchains, the figures, and what was not measured.
func GoVersions(w io.Writer, res *results.Results) error {
	if res.GoVersions == nil {
		return fmt.Errorf("no go versions in these results")
	}
	v := newGoView(res)
	bw := &printer{w: w}
	fmt.Fprintln(bw, v.title)
	for _, n := range runNotes(res) {
		fmt.Fprintln(bw, n)
	}
	fmt.Fprintln(bw, "toolchains:")
	for _, tc := range v.toolchains {
		fmt.Fprintf(bw, "  %s: %s\n", tc[0], tc[1])
	}
	if len(v.rows) > 0 {
		fmt.Fprintf(bw, "\nverdict: "+goVersionsTitle+"\n", v.base, v.base)
		textTable(bw, append([][]string{v.head}, v.rows...), tabwriter.AlignRight)
	}
	if len(v.chRows) > 0 {
		fmt.Fprintf(bw, "\n"+goChangesTitle+"\n", v.base)
		textTable(bw, append([][]string{v.chHead}, v.chRows...), tabwriter.AlignRight)
	}
	if len(v.figRows) > 0 {
		fmt.Fprintln(bw, "\nfigures (median of the rounds):")
		textTable(bw, append([][]string{v.figHead}, v.figRows...), tabwriter.AlignRight)
	}
	for _, n := range v.notMeasured {
		fmt.Fprintf(bw, "note: %s\n", n)
	}
	if res.Partial {
		fmt.Fprintf(bw, "\nPARTIAL: %s; the cells above are what was measured until then.\n", res.PartialReason)
	}
	return bw.err
}

// textTable prints rows in columns, each line indented by two: the
// first column aligned left, the others as flags say (tabwriter's).
func textTable(w io.Writer, rows [][]string, flags uint) {
	width := 0
	for _, r := range rows {
		width = max(width, utf8.RuneCountInString(r[0]))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', flags)
	for _, r := range rows {
		pad := strings.Repeat(" ", width-utf8.RuneCountInString(r[0]))
		fmt.Fprintf(tw, "  %s%s\t%s\t\n", r[0], pad, strings.Join(r[1:], "\t"))
	}
	tw.Flush()
}

// goVersionsMarkdown writes what GoVersions does as Markdown.
func goVersionsMarkdown(w io.Writer, res *results.Results) error {
	if res.GoVersions == nil {
		return fmt.Errorf("no go versions in these results")
	}
	v := newGoView(res)
	bw := &printer{w: w}
	fmt.Fprintf(bw, "# httpvs run --go, %s\n\n%s\n\n## Toolchains\n\n", res.Started.Format("2006-01-02 15:04:05 MST"), mdEscape([]string{v.title})[0])
	mdTable(bw, append([][]string{{"toolchain", ""}}, v.toolchains...))
	if len(v.rows) > 0 {
		fmt.Fprintf(bw, "## Verdict\n\n"+goVersionsTitle+"\n\n", v.base, v.base)
		mdTable(bw, append([][]string{v.head}, v.rows...))
	}
	if len(v.chRows) > 0 {
		fmt.Fprintf(bw, "## Changes\n\n"+goChangesTitle+"\n\n", v.base)
		mdTable(bw, append([][]string{v.chHead}, v.chRows...))
	}
	if len(v.figRows) > 0 {
		fmt.Fprintf(bw, "## Figures\n\nMedian of the rounds.\n\n")
		mdTable(bw, append([][]string{v.figHead}, v.figRows...))
	}
	for _, n := range v.notMeasured {
		fmt.Fprintf(bw, "- %s\n", mdEscape([]string{n})[0])
	}
	return bw.err
}

// mdTable writes rows as a Markdown table, the first row its head.
func mdTable(w io.Writer, rows [][]string) {
	for i, r := range rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(mdEscape(r), " | "))
		if i == 0 {
			fmt.Fprintf(w, "|---|%s\n", strings.Repeat("---:|", len(r)-1))
		}
	}
	fmt.Fprintln(w)
}
