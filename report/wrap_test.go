package report

import (
	"strings"
	"testing"
)

// TestWrap: lines at most the width, words kept whole and in order, the
// first line's prefix and the others', a word longer than a line alone.
func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		s, first, rest string
		width          int
		want           string
	}{
		{"a bb ccc dddd", "", "", 6, "a bb\nccc\ndddd"},
		{"a bb ccc", "> ", "  ", 7, "> a bb\n  ccc"},
		{"short", "", "", 80, "short"},
		{"x averyveryverylongword y", "", "", 5, "x\naveryveryverylongword\ny"},
		{"≈ ≈ ≈", "", "", 3, "≈ ≈\n≈"},
	} {
		got := wrap(tc.s, tc.width, tc.first, tc.rest)
		if got != tc.want {
			t.Errorf("wrap(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
		if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(tc.first+" "+tc.s), " ") {
			t.Errorf("wrap(%q) lost or moved words: %q", tc.s, got)
		}
	}
}

// unwrapped is s with its line breaks and runs of spaces as single spaces.
func unwrapped(s string) string { return strings.Join(strings.Fields(s), " ") }
