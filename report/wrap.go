package report

import (
	"strings"
	"unicode/utf8"
)

// textWidth is the width the text report's prose is wrapped to, columns:
// a terminal of 120 columns shows every line whole.
const textWidth = 120

// wrap breaks s into lines of at most width columns at spaces, the first
// line starting with first and the others with rest; a word longer than
// a line stands alone.
func wrap(s string, width int, first, rest string) string {
	var b strings.Builder
	line, n := first, utf8.RuneCountInString(first)
	empty := true
	for _, w := range strings.Fields(s) {
		wn := utf8.RuneCountInString(w)
		if !empty && n+1+wn > width {
			b.WriteString(line)
			b.WriteByte('\n')
			line, n, empty = rest, utf8.RuneCountInString(rest), true
		}
		if !empty {
			line += " "
			n++
		}
		line += w
		n += wn
		empty = false
	}
	b.WriteString(line)
	return b.String()
}

// wrapLines wraps each of lines to textWidth, continuing each one two
// columns further in than it starts (under the text of a "- " item);
// leading blank lines are kept.
func wrapLines(lines ...string) string {
	var out []string
	for _, l := range lines {
		blank := l[:len(l)-len(strings.TrimLeft(l, "\n"))]
		body := strings.TrimLeft(l[len(blank):], " ")
		indent := l[len(blank) : len(l)-len(body)]
		out = append(out, blank+wrap(body, textWidth, indent, indent+"  "))
	}
	return strings.Join(out, "\n")
}
