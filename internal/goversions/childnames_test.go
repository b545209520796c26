package goversions

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"

	"github.com/httpvs/httpvs/transport"
)

// TestChildProtocolNames holds the embedded program's own spelling of the
// transports (it cannot import transport) to transport's.
func TestChildProtocolNames(t *testing.T) {
	src, err := source.ReadFile("child/client.go")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "client.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 {
			return true
		}
		if lit, ok := vs.Values[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			got[vs.Names[0].Name] = s
		}
		return true
	})
	want := map[string]transport.Protocol{"protoH1": transport.H1, "protoH2C": transport.H2C, "protoH1TLS": transport.H1TLS, "protoH2": transport.H2}
	for name, p := range want {
		if got[name] != p.String() {
			t.Errorf("child's %s = %q, want %q", name, got[name], p)
		}
	}
}
