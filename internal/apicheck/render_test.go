package apicheck

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// sample is a package with one of each kind of declaration Render lists.
const sample = `package sample

import "time"

const Limit = 3
const hidden = 4

var Default = Options{Wait: time.Second}

type Options struct {
	Wait  time.Duration
	count int
	Base
	inner
}

type Base struct{ Name string }

func (Base) Hello() string { return "" }

type inner struct{ Promoted bool }

func (*inner) Deep() {}

type Doer interface {
	Do(n int) error
	undo()
}

type Alias = Options

type Set[T comparable] map[T]bool

func (s Set[T]) Has(v T) bool { return s[v] }

func New(o Options) (*Options, error) { return &o, nil }

func helper() {}
`

// TestRender: each exported declaration on its own line, unexported ones
// left out, fields and methods under their type, promoted ones included.
func TestRender(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "sample.go", sample, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := types.Config{Importer: importer.Default()}
	pkg, err := conf.Check(Module+"/sample", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	l := Render(pkg)
	want := `type Alias = Options
type Base struct
    Base.Name string
method (Base) Hello() string
var Default Options
type Doer interface
    Doer.Do(n int) error
    Doer has unexported methods
const Limit untyped int = 3
func New(o Options) (*Options, error)
type Options struct
    Options.Wait time.Duration
    Options.Base embedded Base
    Options.Promoted bool
method (*Options) Deep()
method (Options) Hello() string
type Set[T comparable] map[T]bool
method (Set) Has(v T) bool`
	if got := strings.Join(l.Lines, "\n"); got != want {
		t.Errorf("Render:\n%s\nwant:\n%s", got, want)
	}
	if where, ok := l.Mentions["time"]; !ok || where != "Options.Wait" {
		t.Errorf("Mentions[time] = %q, %v; want the first line naming it, Options.Wait", where, ok)
	}
}

// TestDiff: declarations only in the snapshot are "-", only in the code
// "+", each under its package; the same declarations in both give "".
func TestDiff(t *testing.T) {
	for _, c := range []struct {
		name, want, got, diff string
	}{
		{"same", "# c\npkg a\nfunc F()\n", "pkg a\nfunc F()\n", ""},
		{"added", "pkg a\nfunc F()\n", "pkg a\nfunc F()\nfunc G()\n", "pkg a\n+ func G()\n"},
		{"removed", "pkg a\nfunc F()\npkg b\nfunc F()\n", "pkg a\nfunc F()\n", "pkg b\n- func F()\n"},
		{"changed", "pkg a\nfunc F(int)\n", "pkg a\nfunc F(string)\n", "pkg a\n- func F(int)\npkg a\n+ func F(string)\n"},
		{"moved package", "pkg a\nfunc F()\n", "pkg b\nfunc F()\n", "pkg a\n- func F()\npkg b\n+ func F()\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Diff(c.want, c.got); got != c.diff {
				t.Errorf("Diff:\n%s\nwant:\n%s", got, c.diff)
			}
		})
	}
}
