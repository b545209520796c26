package cli

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/net/http/httpguts"

	"github.com/httpvs/httpvs/units"
)

// The one grammar every command follows, after curl, h2load, wrk, oha and
// hey where they agree:
//
//	-n, --requests N    how many requests (get, put: transfers, each one request)
//	-c, --conns N       connections
//	-P, --parallel N    get, put: transfers at once
//	--timeout D         bound on each request (a transfer is its request)
//	-H, --header L      an extra request header, repeatable
//	--body SIZE|@FILE   the request body: a size of pattern bytes, or a file
//	--json              print exactly one JSON object
//
// Every int, duration and size flag given must be positive unless the
// command allows zero for it (allowZero); defaults are never substituted
// for a zero typed by the user.

// alias registers name as another spelling of the flag primary.
func (fs *flagSet) alias(primary, name string) {
	f := fs.Lookup(primary)
	fs.Var(f.Value, name, f.Usage)
	if fs.aliases == nil {
		fs.aliases = map[string]string{}
	}
	fs.aliases[name] = primary
}

// allowZero lets the named flags be given as 0 (each says what 0 means).
func (fs *flagSet) allowZero(names ...string) {
	if fs.zeroOK == nil {
		fs.zeroOK = map[string]bool{}
	}
	for _, n := range names {
		fs.zeroOK[n] = true
	}
}

// renamed refuses the flag old, which this command no longer has or which
// now means something else, with msg naming the flag to use.
func (fs *flagSet) renamed(old, msg string) {
	if fs.gone == nil {
		fs.gone = map[string]string{}
	}
	fs.gone[old] = msg
}

// given returns the names of the flags set on the command line, aliases
// under their primary name too.
func (fs *flagSet) given() map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		set[f.Name] = true
		if p, ok := fs.aliases[f.Name]; ok {
			set[p] = true
		}
	})
	return set
}

// typed returns the spelling of the flag primary as given on the command
// line (-c or --conns), or its primary spelling if it was not given.
func (fs *flagSet) typed(primary string) string {
	name := primary
	fs.Visit(func(f *flag.Flag) {
		if fs.aliases[f.Name] == primary {
			name = f.Name
		}
	})
	return dash(name)
}

// checkValues refuses, in one line, a zero or negative int, duration or
// size given on the command line.
func (fs *flagSet) checkValues() error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil {
			return
		}
		n, kind := number(f.Value)
		zero := fs.zeroOK[f.Name] || fs.zeroOK[fs.aliases[f.Name]]
		switch {
		case kind == "" || n > 0 || zero: // a command checks its own zero-or-more flags
		case kind == "int":
			err = usagef("%s %s: want at least 1", dash(f.Name), f.Value)
		default:
			eg := f.DefValue
			if eg == "" || eg == "0" || eg == "0s" {
				eg = map[string]string{"duration": "10s", "size": "64Ki"}[kind]
			}
			err = usagef("%s %s: want a positive %s, e.g. %s", dash(f.Name), f.Value, kind, eg)
		}
	})
	return err
}

// number reads a flag value's magnitude and kind (int, duration, size);
// kind is "" for other values.
func number(v flag.Value) (int64, string) {
	switch x := v.(type) {
	case *units.Bytes:
		return int64(*x), "size"
	case flag.Getter:
		switch g := x.Get().(type) {
		case int:
			return int64(g), "int"
		case int64:
			return g, "int"
		case time.Duration:
			return int64(g), "duration"
		}
	}
	return 0, ""
}

// helpEntry is one flag as help lists it: all its spellings, the kind of
// value it takes, what it does and the default note help prints.
type helpEntry struct {
	names      []string // dashed, shortest first: -c, --conns
	typ, usage string   // from flag.UnquoteUsage
	defNote    string   // " (default X)", or "" when usage says it
	flag       *flag.Flag
}

// helpSection is a heading of help (empty: no groups) and its flags.
type helpSection struct {
	title   string
	entries []helpEntry
}

// helpSections returns the flags as help lists them: by group, in the
// order the command gave, then the rest under "other" (or, with no
// groups, all of them under no title); hidden flags and aliases left out.
func (fs *flagSet) helpSections() []helpSection {
	others := map[string][]string{}
	for alias, primary := range fs.aliases {
		others[primary] = append(others[primary], alias)
	}
	entry := func(f *flag.Flag) helpEntry {
		names := append([]string{f.Name}, others[f.Name]...)
		slices.SortFunc(names, func(a, b string) int {
			if len(a) != len(b) {
				return len(a) - len(b)
			}
			return strings.Compare(a, b)
		})
		for i, n := range names {
			names[i] = dash(n)
		}
		typ, usage := flag.UnquoteUsage(f)
		return helpEntry{names: names, typ: typ, usage: usage, defNote: defaultNote(f, usage), flag: f}
	}
	var sections []helpSection
	listed := map[string]bool{}
	for _, g := range fs.groups {
		s := helpSection{title: g.title}
		for _, n := range g.names {
			if f := fs.Lookup(n); f != nil && !listed[n] {
				listed[n] = true
				s.entries = append(s.entries, entry(f))
			}
		}
		sections = append(sections, s)
	}
	rest := helpSection{}
	if len(fs.groups) > 0 {
		rest.title = "other"
	}
	fs.VisitAll(func(f *flag.Flag) {
		if _, ok := fs.aliases[f.Name]; ok || fs.hidden[f.Name] || listed[f.Name] {
			return
		}
		rest.entries = append(rest.entries, entry(f))
	})
	if len(rest.entries) > 0 {
		sections = append(sections, rest)
	}
	return sections
}

// printHelp prints the flags, each with its other spellings and its
// default: "  -c, --conns N".
func (fs *flagSet) printHelp(w io.Writer) {
	for _, s := range fs.helpSections() {
		if s.title != "" {
			fmt.Fprintf(w, "\n%s:\n", s.title)
		}
		for _, e := range s.entries {
			line := "  " + strings.Join(e.names, ", ")
			if e.typ != "" {
				line += " " + e.typ
			}
			fmt.Fprintf(w, "%s\n    \t%s%s\n", line, strings.ReplaceAll(e.usage, "\n", "\n    \t"), e.defNote)
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

// headerFlag collects -H "Name: value" lines, checked as they come.
type headerFlag struct{ h http.Header }

// clientSet are the headers the clients write themselves from the URL
// and the body: a second copy would make a malformed request.
var clientSet = []string{"Host", "Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive", "Proxy-Connection", "Te", "Upgrade"}

func (f *headerFlag) String() string {
	var lines []string
	for k, vs := range f.h {
		for _, v := range vs {
			lines = append(lines, k+": "+v)
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, ", ")
}

func (f *headerFlag) Set(line string) error {
	name, value, ok := strings.Cut(line, ":")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	switch {
	case !ok || !httpguts.ValidHeaderFieldName(name):
		return fmt.Errorf("want \"Name: value\", e.g. -H 'Authorization: Bearer x'")
	case !httpguts.ValidHeaderFieldValue(value):
		return fmt.Errorf("header %s: the value holds a control character", name)
	}
	name = textproto.CanonicalMIMEHeaderKey(name)
	if slices.Contains(clientSet, name) {
		return fmt.Errorf("%s is set by the client from the URL and the body; it cannot be given", name)
	}
	if f.h == nil {
		f.h = http.Header{}
	}
	f.h.Add(name, value)
	return nil
}

// headerFlags registers -H/--header on fs.
func headerFlags(fs *flagSet, h *headerFlag) {
	fs.Var(h, "H", "extra request header `\"Name: value\"`, sent with every request; repeatable (as curl -H)")
	fs.alias("H", "header")
}

// bodyFlag is --body SIZE or --body @FILE (curl's syntax).
type bodyFlag struct {
	size units.Bytes
	file string // set by @FILE
}

func (b *bodyFlag) String() string {
	if b.file != "" {
		return "@" + b.file
	}
	return b.size.String()
}

func (b *bodyFlag) Set(s string) error {
	if name, ok := strings.CutPrefix(s, "@"); ok {
		if name == "" {
			return fmt.Errorf("want @FILE, a file's name after the @")
		}
		b.file, b.size = name, 0
		return nil
	}
	b.file = ""
	return b.size.Set(s)
}

// open opens --body's file, a regular file that can be read, and returns
// it with its size.
func (b *bodyFlag) open() (*os.File, units.Bytes, error) {
	f, err := os.Open(b.file)
	if err != nil {
		return nil, 0, usagef("--body @%s: %v", b.file, unwrapPath(err))
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("not a regular file")
	}
	if err == nil && fi.Size() > 0 {
		_, err = f.ReadAt(make([]byte, 1), 0)
	}
	if err != nil {
		f.Close()
		return nil, 0, usagef("--body @%s: cannot read it: %v", b.file, unwrapPath(err))
	}
	return f, units.Bytes(fi.Size()), nil
}

// read reads --body's file whole, up to 1Gi, for a body sent many times.
func (b *bodyFlag) read() ([]byte, error) {
	f, size, err := b.open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > units.GiB {
		return nil, usagef("--body @%s: %v bytes, above the 1Gi a request body may have here", b.file, int64(size))
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(f, body); err != nil {
		return nil, usagef("--body @%s: cannot read it: %v", b.file, err)
	}
	return body, nil
}

// unwrapPath drops the *os.PathError's repetition of the file name.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// nearest is the flag of fs (an alias included, hidden ones not) closest
// to name, a user's typo: within two edits, or one that name begins; ""
// when none is.
func (fs *flagSet) nearest(name string) string {
	best, bestD := "", 3
	fs.VisitAll(func(f *flag.Flag) {
		if fs.hidden[f.Name] || len(f.Name) < 2 {
			return
		}
		d := editDistance(name, f.Name)
		if len(name) >= 3 && strings.HasPrefix(f.Name, name) {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = f.Name, d
		}
	})
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
