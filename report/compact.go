package report

import (
	"fmt"
	"strings"

	"github.com/httpvs/httpvs/internal/verdict"
	"github.com/httpvs/httpvs/results"
)

// compactCell is a verdict cell as the text report's first screen shows
// it, narrow enough for five transports in textWidth columns: the ratio,
// its 95% interval as a half-width, and the verdict ("0.27x ±20% slow"
// for slower, "0.94x ±12% ≈", "1.21x ±24% ?" for undetermined); text, the
// cell's full wording (verdict.cell), where it has no interval.
func compactCell(c *results.Cell, text string, net *results.Net, machineBound bool) string {
	if c == nil || c.VsH1 == nil || c.VsH1.Pairs < 2 || c.Skipped != "" {
		return text
	}
	iv := *c.VsH1
	word := map[string]string{results.VerdictSlower: "slow", results.VerdictFaster: "fast", results.VerdictSimilar: "≈", results.VerdictUndetermined: "?"}[iv.Verdict]
	if word == "" {
		word = iv.Verdict
	}
	if machineBound {
		word = "machine-bound"
	}
	f := "%.2f"
	if iv.Ratio < 0.01 {
		f = "%.4f"
	}
	out := fmt.Sprintf(f+"x ±%.0f%% %s", iv.Ratio, verdict.HalfWidth(iv)*100, word)
	if c.Partial != "" {
		out += " (cut short)"
	}
	return out + linkMark(c, net)
}

// compactLegend says what the compact cells' marks mean.
func compactLegend(base string) string {
	s := fmt.Sprintf("(±: the interval's half-width; slow, fast: slower, faster; ? undetermined; ≈ %s; exact bounds in the Markdown and HTML reports", base)
	return s + ")"
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
