package flagset

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// HelpEntry is one flag as help lists it: all its spellings, the kind of
// value it takes, what it does and the default note help prints.
type HelpEntry struct {
	Names       []string // dashed, shortest first: -c, --conns
	Type, Usage string   // from flag.UnquoteUsage
	DefNote     string   // " (default X)", or "" when usage says it
	Flag        *flag.Flag
}

// HelpSection is a heading of help (empty: no groups) and its flags.
type HelpSection struct {
	Title   string
	Entries []HelpEntry
}

// HelpSections returns the flags as help lists them: by group, in the
// order the command gave, then the rest under "other" (or, with no
// groups, all of them under no title); aliases left out.
func (fs *Set) HelpSections() []HelpSection {
	others := map[string][]string{}
	for alias, primary := range fs.aliases {
		others[primary] = append(others[primary], alias)
	}
	entry := func(f *flag.Flag) HelpEntry {
		names := append([]string{f.Name}, others[f.Name]...)
		slices.SortFunc(names, func(a, b string) int { return cmp.Or(len(a)-len(b), strings.Compare(a, b)) })
		for i, n := range names {
			names[i] = Dash(n)
		}
		typ, usage := flag.UnquoteUsage(f)
		return HelpEntry{Names: names, Type: typ, Usage: usage, DefNote: defaultNote(f, usage), Flag: f}
	}
	var sections []HelpSection
	listed := map[string]bool{}
	for _, g := range fs.groups {
		s := HelpSection{Title: g.title}
		for _, n := range g.names {
			if f := fs.Lookup(n); f != nil && !listed[n] {
				listed[n] = true
				s.Entries = append(s.Entries, entry(f))
			}
		}
		sections = append(sections, s)
	}
	rest := HelpSection{}
	if len(fs.groups) > 0 {
		rest.Title = "other"
	}
	fs.VisitAll(func(f *flag.Flag) {
		if _, ok := fs.aliases[f.Name]; ok || listed[f.Name] {
			return
		}
		rest.Entries = append(rest.Entries, entry(f))
	})
	if len(rest.Entries) > 0 {
		sections = append(sections, rest)
	}
	return sections
}

// PrintHelp prints the flags, each with its other spellings and its
// default: "  -c, --conns N".
func (fs *Set) PrintHelp(w io.Writer) {
	for _, s := range fs.HelpSections() {
		if s.Title != "" {
			fmt.Fprintf(w, "\n%s:\n", s.Title)
		}
		for _, e := range s.Entries {
			line := "  " + strings.Join(e.Names, ", ")
			if e.Type != "" {
				line += " " + e.Type
			}
			fmt.Fprintf(w, "%s\n    \t%s%s\n", line, strings.ReplaceAll(e.Usage, "\n", "\n    \t"), e.DefNote)
		}
	}
}

// defaultNote is " (default X)" unless usage says it already; booleans
// default to off and empty strings to nothing, and say so by omission.
func defaultNote(f *flag.Flag, usage string) string {
	if strings.Contains(usage, "(default") || f.DefValue == "" || f.DefValue == "false" {
		return ""
	}
	if g, ok := f.Value.(flag.Getter); ok {
		if _, isString := g.Get().(string); isString {
			return fmt.Sprintf(" (default %q)", f.DefValue)
		}
	}
	return " (default " + f.DefValue + ")"
}
