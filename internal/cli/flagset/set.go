package flagset

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"strings"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/transport"
)

// Set is a flag.FlagSet that reports errors to the caller instead of
// printing or exiting, and prints its usage to stdout only on -h; New
// makes one.
type Set struct {
	*flag.FlagSet
	help func()
	// fields maps the Go field paths the libraries name in their
	// *config.FieldError ("Conns", "Client.ReadSize") to this command's
	// flags, so that an error names what the user typed.
	fields map[string]string
	// aliases maps a flag's other spellings to its primary name (-c and
	// --conns); zeroOK names the flags that may be given as 0 and what 0
	// means, and none those whose 0 the library takes as its negative
	// (ZeroIsNone); gone maps a flag this command refuses to the line that
	// names its successor.
	aliases map[string]string
	zeroOK  map[string]string
	none    map[string]bool
	gone    map[string]string
	// groups order help by purpose: each a title and its flags' primary
	// names; flags in none are listed last, under "other".
	groups []flagGroup
	// name and synopsis are the command's, as its usage line shows them.
	name, synopsis string
	// About, when set, is printed by -h between the usage line and the
	// flags: how to read what the command prints.
	About string
}

// flagGroup is a heading of help and the flags under it.
type flagGroup struct {
	title string
	names []string
}

// Group puts the named flags under title in help, in the order given.
func (fs *Set) Group(title string, names ...string) {
	fs.groups = append(fs.groups, flagGroup{title, names})
}

// Fields records, for each library field path in m, the flag that sets
// it.
func (fs *Set) Fields(m map[string]string) {
	maps.Copy(fs.fields, m)
}

// ShowDefaults sets the default help shows for each named flag: one bound
// to a library's field whose zero the library fills, which the flag
// leaves as it is unless given.
func (fs *Set) ShowDefaults(m map[string]any) {
	for name, v := range m {
		fs.Lookup(name).DefValue = fmt.Sprint(v)
	}
}

// UsageError is bad input: the command exits with code 2 and prints
// Msg with a pointer to its -h.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Usagef returns a *UsageError with the message format makes of args.
func Usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// ErrHelp means -h was asked for and the help was printed: exit 0.
var ErrHelp = errors.New("help")

// FlagFor returns the flag recorded by Fields for the library field at
// path ("Client.ReadSize"), or for the longest tail of path recorded (an
// experiment's "Matrix.Client.ReadSize" is "Client.ReadSize"), and whether
// there is one.
func (fs *Set) FlagFor(path string) (string, bool) {
	for {
		if name, ok := fs.fields[path]; ok {
			return name, true
		}
		_, tail, ok := strings.Cut(path, ".")
		if !ok {
			return "", false
		}
		path = tail
	}
}

// Dash returns a flag's name as typed: -c, --read-size.
func Dash(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// Check turns a library's validation error into a usage error naming this
// command's flag as the user typed it (-c or --conns), with the value as
// the library says it (quoted where it may hold control characters);
// other errors pass through unchanged.
func (fs *Set) Check(err error) error {
	var (
		fe *config.FieldError
		se *transport.SchemeError
	)
	switch {
	case err == nil:
		return nil
	case errors.As(err, &fe):
		name, ok := fs.FlagFor(fe.Field)
		if !ok {
			return Usagef("%v", fe)
		}
		return Usagef("%s %v: want %s", fs.Typed(name), fe.Value, fe.Want)
	case errors.As(err, &se):
		return schemeUsage(se)
	case errors.As(err, new(*serverctl.CleartextTokenError)):
		return Usagef("--profile: %v", err)
	}
	return err
}

// OnHelp, when set (by tests), is given each command's flags as -h
// shows them: docs/cli.md is generated from them (TestCLIReference).
var OnHelp func(*Set)

// New returns the flag set of the command name (its usage line "usage:
// httpvs name synopsis"), which prints its help to stdout on -h.
func New(name, synopsis string, stdout io.Writer) *Set {
	fs := &Set{FlagSet: flag.NewFlagSet("httpvs "+name, flag.ContinueOnError), name: name, synopsis: synopsis,
		fields: map[string]string{}, aliases: map[string]string{}, zeroOK: map[string]string{}, none: map[string]bool{}, gone: map[string]string{}}
	fs.SetOutput(io.Discard)
	// flag calls Usage on every parse error too: keep it quiet, and print
	// the flags only when asked with -h.
	fs.FlagSet.Usage = func() {}
	fs.help = func() {
		if OnHelp != nil {
			OnHelp(fs)
		}
		fmt.Fprintf(stdout, "%s\n\n", fs.UsageLine())
		if fs.About != "" {
			fmt.Fprintf(stdout, "%s\n\n", strings.TrimSpace(fs.About))
		}
		fmt.Fprintln(stdout, "flags:")
		fs.PrintHelp(stdout)
	}
	return fs
}

// UsageLine is the first line of -h: "usage: httpvs get URL [flags]".
func (fs *Set) UsageLine() string {
	return "usage: httpvs " + fs.name + " " + fs.synopsis
}

// ParseN parses args (Parse) and refuses, in one line, other than n
// positional arguments, which want says ("one URL, e.g. ..."); with n 0,
// any.
func (fs *Set) ParseN(args []string, n int, want string) ([]string, error) {
	pos, err := fs.Parse(args)
	switch {
	case err != nil:
		return nil, err
	case n == 0 && len(pos) > 0:
		return nil, Usagef("%s takes no arguments, got %q", fs.name, pos[0])
	case len(pos) != n:
		return nil, Usagef("%s takes %s, got %d argument(s)", fs.name, want, len(pos))
	}
	return pos, nil
}

// Parse parses flags anywhere among args (curl-style: URL first, flags
// after) and returns the positional arguments.
func (fs *Set) Parse(args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.FlagSet.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.help()
				return nil, ErrHelp
			}
			if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
				if fs.gone[name] != "" {
					return nil, Usagef("%s", fs.gone[name])
				}
				if near := fs.nearest(name); near != "" {
					return nil, Usagef("unknown flag %s: did you mean %s?", Dash(name), Dash(near))
				}
				return nil, Usagef("unknown flag %s", Dash(name))
			}
			return nil, fs.parseError(err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, fs.checkValues()
		}
		// flag stops at "--": everything after it is positional.
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(positional, rest...), fs.checkValues()
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}
