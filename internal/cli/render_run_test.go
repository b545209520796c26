package cli

import (
	"bytes"
	"testing"

	"github.com/httpvs/httpvs/report"
	"github.com/httpvs/httpvs/results"
)

// TestAcross: text and Markdown print the verdict across the links after
// a blank line, as report.When and WhenMarkdown write it; json and
// benchstat, whose output is one run's each, print nothing more.
func TestAcross(t *testing.T) {
	runs := []*results.Results{{SchemaVersion: results.SchemaVersion, Settings: results.Settings{Protocols: []string{"h1"}, Target: "child"}}}
	for format, want := range map[string]func(*bytes.Buffer) error{
		"text":      func(b *bytes.Buffer) error { return report.When(b, runs) },
		"markdown":  func(b *bytes.Buffer) error { return report.WhenMarkdown(b, runs) },
		"json":      nil,
		"benchstat": nil,
	} {
		var got, exp bytes.Buffer
		if err := Across(&got, format, runs); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if want != nil {
			exp.WriteString("\n")
			if err := want(&exp); err != nil {
				t.Fatal(err)
			}
		}
		if want != nil && exp.Len() < 20 {
			t.Fatalf("%s: the report wrote %d bytes, too few to tell a table by", format, exp.Len())
		}
		if got.String() != exp.String() {
			t.Errorf("%s: got %q, want %q", format, got.String(), exp.String())
		}
	}
}
