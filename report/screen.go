package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/results"
)

// flagFor is Screen's flags: the flag that sets a library field, ok false
// when none does.
type flagFor = func(field string) (flag string, ok bool)

// Screen writes the first screen of a run: one header line, the verdict
// table (each cell its ratio to the baseline with both bounds of its 95%
// interval, marks for ≈, undetermined and caveats, and a footnote number
// for its main cause), the A/A row, the tuned rows' gain, one footnote per
// cause with the setting that tries its fix, the caveats, and the
// warnings. It computes nothing: every figure and word is a field of res
// (results.Judgement, Cell.VsBaseline, Cell.MainCause, Cell.Marks).
// flags, which may be nil, names the command-line flag that sets a library
// field ("Client.ReadSize" -> "--read-size"): the command gives it, and
// the renderer never names a flag itself.
func Screen(w io.Writer, res *results.Results, flags func(field string) (flag string, ok bool)) error {
	s := newScreen(res, flags)
	p := &printer{w: w}
	for _, l := range s.lines() {
		fmt.Fprintln(p, l)
	}
	return p.err
}

// screen is a first screen being laid out.
type screen struct {
	res   *results.Results
	j     *results.Judgement
	flags flagFor
	base  string
	// notes numbers each cause: the index in j.Causes, plus one.
	notes map[string]int
}

func newScreen(res *results.Results, flags flagFor) *screen {
	j := res.Judgement
	if j == nil {
		j = &results.Judgement{}
	}
	s := &screen{res: res, j: j, flags: flags, base: res.Settings.BaselineProtocol(), notes: map[string]int{}}
	for i, c := range j.Causes {
		for _, cell := range c.Cells {
			s.notes[cell] = i + 1
		}
	}
	return s
}

// lines is the screen, a string a line.
func (s *screen) lines() []string {
	var out []string
	if s.res.Partial {
		out = append(out, "PARTIAL: "+s.res.PartialReason+": the cells below are what was measured until then")
	}
	out = append(out, s.header())
	if l := linkLine(s.res); l != "" {
		out = append(out, wrapLines(l))
	}
	if len(s.res.NotRun) > 0 {
		out = append(out, "not run:")
		for _, n := range s.res.NotRun {
			out = append(out, "  "+notRunText(n, s.flags))
		}
	}
	out = append(out, s.table()...)
	out = append(out, s.aaLine()...)
	out = append(out, s.tunedLine()...)
	out = append(out, s.causeLines()...)
	out = append(out, s.caveatLines()...)
	var browser strings.Builder
	browserText(&browser, s.res)
	if b := strings.Trim(browser.String(), "\n"); b != "" {
		out = append(out, strings.Split(b, "\n")...)
	}
	return append(out, s.warnings()...)
}

// header says in one line what ran where: the tool, the machine, Go, the
// knobs, the rounds and how many cells were decided.
func (s *screen) header() string {
	e, set := s.res.Env, s.res.Settings
	where := "loopback"
	switch {
	case set.Net != nil:
		where = "emulated link"
	case set.Target != "child":
		where = "target " + strings.TrimSpace(set.Target+" "+set.TLSTarget)
	}
	machine := "cores unknown"
	if e.Cores > 0 {
		machine = fmt.Sprintf("%d cores", e.Cores)
	}
	if e.CPUModel != "" {
		machine = strings.NewReplacer("(R)", "", "(TM)", "").Replace(e.CPUModel) + ", " + machine
	}
	if set.Pin != nil {
		machine += ", pinned"
	}
	rounds := plural(set.Repeat, "round")
	if lo, hi := s.roundRange(); hi > lo {
		rounds = fmt.Sprintf("%d-%d rounds", lo, hi)
	} else if hi > 0 {
		rounds = plural(hi, "round")
	}
	parts := []string{"httpvs " + orUnknown(e.Version, "version"), where, machine, orUnknown(e.GoVersion, "Go"), "knobs " + knobSetName(s.res), rounds}
	if s.base != "" && s.base != "h1" {
		parts = append(parts, "baseline "+s.base)
	}
	if s.j.Cells > 0 {
		parts = append(parts, fmt.Sprintf("%d/%d decided", s.j.Decided, s.j.Cells))
	}
	line := strings.Join(parts, " · ")
	if len([]rune(line)) > textWidth && e.CPUModel != "" {
		parts[2] = fmt.Sprintf("%d cores", e.Cores)
		line = strings.Join(parts, " · ")
	}
	return line
}

// roundRange is the fewest and most rounds a verdict cell paired.
func (s *screen) roundRange() (lo, hi int) {
	for _, c := range s.res.Cells {
		if c.VsBaseline == nil || c.VsBaseline.Pairs == 0 {
			continue
		}
		if lo == 0 || c.VsBaseline.Pairs < lo {
			lo = c.VsBaseline.Pairs
		}
		hi = max(hi, c.VsBaseline.Pairs)
	}
	return lo, hi
}

// columns are the table's transports: every column but the baseline, and
// grpc-native folded into h2c's (its cells get rows of their own: grpc-go's
// server speaks HTTP/2 in cleartext) when the run has an h2c column.
func (s *screen) columns() (cols []string, folded string) {
	all := s.res.ProtocolNames("")
	for _, p := range all {
		if p == s.base {
			continue
		}
		if p == nativeColumn && slices.Contains(all, h2cColumn) {
			folded = p
			continue
		}
		cols = append(cols, p)
	}
	return cols, folded
}

const (
	nativeColumn = "grpc-native"
	h2cColumn    = "h2c"
)

// table is the verdict table, a line a row, aligned.
func (s *screen) table() []string {
	if rows, _ := s.tableRows(); rows != nil {
		return align(rows)
	}
	return s.baselineTable()
}

// tableRows are the verdict table's rows, the head first: a row per
// scenario, a cell per transport but the baseline; nil when the run
// measured its baseline alone. cells holds, per row, the cell behind
// each text (nil: none; the head's row is nil).
func (s *screen) tableRows() (rows [][]string, cells [][]*results.Cell) {
	cols, folded := s.columns()
	if len(cols) == 0 {
		return nil, nil
	}
	rows, cells = [][]string{append([]string{""}, cols...)}, [][]*results.Cell{nil}
	for _, name := range s.res.ScenarioNames() {
		row, of := []string{name}, []*results.Cell{}
		for _, p := range cols {
			c := s.res.Cell(name, p)
			row, of = append(row, s.cell(c)), append(of, c)
		}
		if !allBlank(row[1:]) {
			rows, cells = append(rows, row), append(cells, of)
		}
		if c := s.res.Cell(name, folded); folded != "" && c != nil {
			row, of := []string{name + " " + folded}, []*results.Cell{}
			for _, p := range cols {
				if p == h2cColumn {
					row, of = append(row, s.cell(c)), append(of, c)
				} else {
					row, of = append(row, ""), append(of, nil)
				}
			}
			rows, cells = append(rows, row), append(cells, of)
		}
	}
	return rows, cells
}

func allBlank(texts []string) bool {
	for _, t := range texts {
		if t != "" {
			return false
		}
	}
	return true
}

// align pads rows' columns to their widest text, two spaces apart, with
// no padding after a row's last text.
func align(rows [][]string) []string {
	var widths []int
	for _, r := range rows {
		for i, t := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len([]rune(t)))
		}
	}
	out := make([]string, len(rows))
	for n, r := range rows {
		var b strings.Builder
		for i, t := range r {
			b.WriteString(t)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-len([]rune(t))+2))
			}
		}
		out[n] = strings.TrimRight(b.String(), " ")
	}
	return out
}

// Marks on a cell of the first screen.
const (
	markSimilar      = "≈"
	markUndetermined = "?"
	markMachine      = "†"
	markFloor        = "~"
	markCut          = "!"
)

// cell is one verdict cell: "0.34x [0.30, 0.37]¹", "0.97x [0.90, 1.04] ≈",
// or why there is none.
func (s *screen) cell(c *results.Cell) string {
	if why, none := unmeasured(c); none {
		return why
	}
	switch {
	case c.VsBaseline == nil:
		return "no pair"
	}
	text := boundsText(*c.VsBaseline)
	switch c.VsBaseline.Verdict {
	case results.VerdictSimilar:
		text += " " + markSimilar
	case results.VerdictUndetermined:
		text += " " + markUndetermined
	case results.VerdictUnknown:
		text += " (1 round)"
	}
	for _, m := range c.Marks {
		text += map[string]string{vocab.MarkMachineBound: markMachine, vocab.MarkWithinFloor: markFloor}[m]
	}
	if c.Partial != "" {
		text += markCut
	}
	if n := s.notes[c.Scenario+"/"+c.Protocol]; n > 0 {
		text += superscript(n)
	}
	return text
}

// superscript writes n in superscript digits.
func superscript(n int) string {
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	sup := []rune(digits)
	var out []rune
	for _, d := range fmt.Sprint(n) {
		out = append(out, sup[d-'0'])
	}
	return string(out)
}

// baselineTable is the table of a run that measured its baseline alone:
// each scenario's median, with nothing to compare it with.
func (s *screen) baselineTable() []string {
	rows := [][]string{{"", s.base}}
	for _, name := range s.res.ScenarioNames() {
		c := s.res.Cell(name, s.base)
		if c == nil {
			continue
		}
		text := s.cell(c)
		if c.Skipped == "" && len(c.Repetitions) > 0 {
			text = metricValue(c.Metric, c.Median)
		}
		rows = append(rows, []string{name, text})
	}
	if len(rows) == 1 {
		return nil
	}
	return align(rows)
}

// unmeasured says why c has no figure to print: "" for no cell, "failed",
// "skipped" or "-" (no repetition); none is false when it has one.
func unmeasured(c *results.Cell) (why string, none bool) {
	switch {
	case c == nil:
		return "", true
	case c.Skipped != "" && c.Failed:
		return "failed", true
	case c.Skipped != "":
		return "skipped", true
	case len(c.Repetitions) == 0:
		return "-", true
	}
	return "", false
}

// orUnknown is v, or what it names said unknown: a missing value is
// shown as such, never as a blank.
func orUnknown(v, what string) string {
	if v == "" {
		return what + " unknown"
	}
	return v
}
