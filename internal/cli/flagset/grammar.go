package flagset

import (
	"flag"
	"time"

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
// Every int, duration and size flag given must be positive, or zero where
// the command says what zero means (AllowZero); defaults are never
// substituted for a zero typed by the user.

// Alias registers name as another spelling of the flag primary.
func (fs *Set) Alias(primary, name string) {
	f := fs.Lookup(primary)
	fs.Var(f.Value, name, f.Usage)
	fs.aliases[name] = primary
}

// AllowZero lets the flag name be given as 0, which means what meaning
// says ("no bound"); a negative value is refused, saying it.
func (fs *Set) AllowZero(name, meaning string) {
	fs.zeroOK[name] = meaning
}

// ZeroIsNone lets the int or duration flag name be given as 0, which
// means what meaning says ("no bound"), as AllowZero, and hands the
// library, whose zero is its default, its negative for it instead: none.
func (fs *Set) ZeroIsNone(name, meaning string) {
	fs.AllowZero(name, meaning)
	fs.none[name] = true
}

// Renamed refuses the flag old, which this command no longer has or which
// now means something else, with msg naming the flag to use.
func (fs *Set) Renamed(old, msg string) {
	fs.gone[old] = msg
}

// Given returns the names of the flags set on the command line, aliases
// under their primary name too.
func (fs *Set) Given() map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		set[f.Name] = true
		if p, ok := fs.aliases[f.Name]; ok {
			set[p] = true
		}
	})
	return set
}

// GivenOf returns the flags among names given on the command line, each
// in the spelling typed (Typed), in the order of names.
func (fs *Set) GivenOf(names ...string) []string {
	var given []string
	set := fs.Given()
	for _, name := range names {
		if set[name] {
			given = append(given, fs.Typed(name))
		}
	}
	return given
}

// Typed returns the spelling of the flag primary as given on the command
// line (-c or --conns), or its primary spelling if it was not given.
func (fs *Set) Typed(primary string) string {
	name := primary
	fs.Visit(func(f *flag.Flag) {
		if fs.aliases[f.Name] == primary {
			name = f.Name
		}
	})
	return Dash(name)
}

// checkValues refuses, in one line, a negative int, duration or size
// given on the command line, and a zero one unless AllowZero allows it.
func (fs *Set) checkValues() error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil {
			return
		}
		n, kind := number(f.Value)
		zero, zeroOK := fs.zeroOK[f.Name]
		if p, ok := fs.aliases[f.Name]; ok {
			zero, zeroOK = fs.zeroOK[p]
		}
		switch {
		case kind == "" || n > 0 || (zeroOK && n == 0):
		case zeroOK:
			err = Usagef("%s %s: want 0 (%s) or more", Dash(f.Name), f.Value, zero)
		case kind == "int":
			err = Usagef("%s %s: want at least 1", Dash(f.Name), f.Value)
		default:
			eg := f.DefValue
			if eg == "" || eg == "0" || eg == "0s" {
				eg = map[string]string{"duration": "10s", "size": "64Ki"}[kind]
			}
			err = Usagef("%s %s: want a positive %s, e.g. %s", Dash(f.Name), f.Value, kind, eg)
		}
	})
	if err != nil {
		return err
	}
	// A 0 given for none (ZeroIsNone) becomes the library's none, -1.
	fs.Visit(func(f *flag.Flag) {
		if n, kind := number(f.Value); n == 0 && (fs.none[f.Name] || fs.none[fs.aliases[f.Name]]) {
			err = f.Value.Set(map[string]string{"int": "-1", "duration": "-1ns"}[kind])
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

// nearest is the flag of fs (an alias included) closest
// to name, a user's typo: within two edits, or one that name begins; ""
// when none is.
func (fs *Set) nearest(name string) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if len(f.Name) >= 2 {
			names = append(names, f.Name)
		}
	})
	return Nearest(name, names)
}
