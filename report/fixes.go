package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/httpvs/httpvs/results"
)

// fixList gathers a run's findings into the first screen's "what to
// change": each cause (rule) once, with the cells it applies to grouped
// by scenario, never for the baseline's own cells.
type fixList struct {
	res   *results.Results
	base  string
	order []string // rules, in first-seen order
	rules map[string]*ruleFixes
}

// ruleFixes is one rule's findings across the cells.
type ruleFixes struct {
	texts []string            // each distinct fix text, with its flags, first seen first
	cells map[string][]string // per text: the cells, "download/h2c"
	flags []string            // each distinct flags string
}

func newFixList(res *results.Results, base string) *fixList {
	return &fixList{res: res, base: base, rules: map[string]*ruleFixes{}}
}

// add takes c's findings; the baseline's are left to its table's notes
// (a fix there would not change a ratio's gap).
func (l *fixList) add(c *results.Cell) {
	if c == nil || c.Protocol == l.base {
		return
	}
	for _, f := range c.Findings {
		r := l.rules[f.Rule]
		if r == nil {
			r = &ruleFixes{cells: map[string][]string{}}
			l.rules[f.Rule] = r
			l.order = append(l.order, f.Rule)
		}
		text := f.Fix
		if set := knobsText(f.Knobs); set != "" {
			text += " (set " + set + ")"
			if !slices.Contains(r.flags, "set "+set) {
				r.flags = append(r.flags, "set "+set)
			}
		}
		if r.cells[text] == nil {
			r.texts = append(r.texts, text)
		}
		r.cells[text] = append(r.cells[text], c.Scenario+"/"+c.Protocol)

	}
}

// lines returns the short list (a line per rule) and the full one: a line per distinct text
// of the rules whose short line does not already say it all (a headline
// cut short, or several wordings), so that no fix is printed twice.
func (l *fixList) lines() (short, full []string) {
	for _, rule := range l.order {
		r := l.rules[rule]
		var cells []string
		inFull := len(r.texts) > 1 || headline(r.texts[0]) != withoutFlags(r.texts[0])
		for _, t := range r.texts {
			cells = append(cells, r.cells[t]...)
			if inFull {
				full = append(full, fmt.Sprintf("%s: %s [%s]", rule, t, strings.Join(r.cells[t], ", ")))
			}
		}
		line := rule + ": " + headline(r.texts[0])
		if len(r.flags) > 0 {
			line += " (" + strings.Join(r.flags, "; ") + ")"
		}
		if len(r.texts) > 1 {
			line += fmt.Sprintf(" (worded %d ways by cell: in full below the tables)", len(r.texts))
		}
		short = append(short, fmt.Sprintf("%s [%s]", line, groupCells(cells)))
	}
	return short, full
}

// headlineMax is the most characters a fix's headline keeps.
const headlineMax = 150

// headline is a fix without its flags, cut, when longer than headlineMax
// characters, to its first clause (up to its first "; " or ": " past the
// opening words) and at most headlineMax.
func headline(text string) string {
	text = withoutFlags(text)
	if len(text) <= headlineMax {
		return text
	}
	for _, sep := range []string{"; ", ": "} {
		if i := strings.Index(text, sep); i > 20 && i < len(text) {
			text = text[:i]
			break
		}
	}
	if len(text) > headlineMax {
		cut := strings.LastIndex(text[:headlineMax], " ")
		text = text[:max(cut, 1)] + " ..."
	}
	return text
}

// knobsText is a fix's settings as fields: "Client.ReadSize=256Ki".
func knobsText(knobs []results.Knob) string {
	parts := make([]string, len(knobs))
	for i, k := range knobs {
		parts[i] = k.Field + "=" + k.Value
	}
	return strings.Join(parts, " ")
}

// withoutFlags is a fix's text without its trailing settings, " (set ...)".
func withoutFlags(text string) string {
	if i := strings.LastIndex(text, " (set "); i > 0 && strings.HasSuffix(text, ")") {
		return text[:i]
	}
	return text
}

// groupCells writes cells by scenario: "download: h2c, h2; upload: h2c".
func groupCells(cells []string) string {
	var scenarios []string
	by := map[string][]string{}
	for _, c := range cells {
		sc, p, _ := strings.Cut(c, "/")
		if by[sc] == nil {
			scenarios = append(scenarios, sc)
		}
		if !slices.Contains(by[sc], p) {
			by[sc] = append(by[sc], p)
		}
	}
	parts := make([]string, len(scenarios))
	for i, sc := range scenarios {
		parts[i] = sc + ": " + strings.Join(by[sc], ", ")
	}
	return strings.Join(parts, "; ")
}
