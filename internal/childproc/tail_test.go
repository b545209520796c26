package childproc

import (
	"fmt"
	"strings"
	"testing"
)

// TestTailKeepsTheLastLine: only the last max bytes are kept, and the
// last non-empty line is the one told.
func TestTailKeepsTheLastLine(t *testing.T) {
	b := NewTail(16)
	if got := b.LastLineOr("nothing"); got != "nothing" {
		t.Fatalf("empty: %q", got)
	}
	for i := range 100 {
		fmt.Fprintf(b, "line %d\n", i)
	}
	if got := b.LastLine(); got != "line 99" {
		t.Fatalf("last line %q, want line 99", got)
	}
	b.Write([]byte("\n  \n"))
	if got := b.LastLine(); got != "line 99" {
		t.Fatalf("after blank lines: %q", got)
	}
	if n := len(b.b); n != 16 {
		t.Fatalf("kept %d bytes, want 16", n)
	}
	b.Write([]byte(strings.Repeat("x", 40)))
	if got := b.LastLine(); got != strings.Repeat("x", 16) {
		t.Fatalf("a long last line: %q, want its last 16 bytes", got)
	}
}
