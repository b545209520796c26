package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// TestReadmeLinks: every relative link in README.md and docs/*.md names a
// file that exists and, when it has a #fragment into Markdown, a heading
// there, so that the guide's pointers into docs/ stay good as pages move.
func TestReadmeLinks(t *testing.T) {
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, "../../README.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s links to %s: %v", page, target, err)
				continue
			}
			if frag == "" || !strings.HasSuffix(path, ".md") {
				continue
			}
			if !hasAnchor(t, path, frag) {
				t.Errorf("%s links to %s: no heading %q there", page, target, frag)
			}
		}
	}
}

// hasAnchor says whether the Markdown file at path has a heading whose
// GitHub anchor is frag.
func hasAnchor(t *testing.T, path, frag string) bool {
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	inCode := false
	for _, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(line, "#") {
			continue
		}
		if anchor(strings.TrimLeft(line, "# ")) == frag {
			return true
		}
	}
	return false
}

// anchor is GitHub's id for a heading: lower case, spaces to hyphens,
// punctuation but hyphens and underscores dropped.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
