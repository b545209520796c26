package cli

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/serverctl"
)

var update = flag.Bool("update", false, "rewrite docs/cli.md from the commands' flags")

// cliReference is where the reference generated from the flags lives.
const cliReference = "../../docs/cli.md"

// TestCLIReference checks that docs/cli.md is what the commands' own flag
// definitions say, as -h prints them (groups, spellings, defaults); with
// -update it writes the file.
func TestCLIReference(t *testing.T) {
	t.Setenv(serverctl.TokenEnv, "") // serve --token's default comes from the environment
	got := renderCLIReference(t)
	if *update {
		if err := os.WriteFile(cliReference, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(cliReference)
	if err != nil {
		t.Fatalf("%v: write it with go test ./internal/cli -run TestCLIReference -update", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Errorf("docs/cli.md line %d:\n have %s\n want %s", i+1, wl[i], gl[i])
				break
			}
		}
		t.Fatal("docs/cli.md differs from the commands' flags: go test ./internal/cli -run TestCLIReference -update")
	}
}

// renderCLIReference runs every command's -h and renders the flag sets it
// shows as Markdown.
func renderCLIReference(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("# Command-line reference\n\n")
	b.WriteString("<!-- Generated from the commands' flag definitions by\n")
	b.WriteString("     go test ./internal/cli -run TestCLIReference -update\n")
	b.WriteString("     Do not edit: CI fails when this file and the flags differ. -->\n\n")
	b.WriteString("Every command `httpvs -h` lists, with its usage line and its flags, grouped as\n")
	b.WriteString("`httpvs <command> -h` groups them, each with the default that command uses.\n")
	b.WriteString("The flags follow one grammar across commands ([grammar.md](grammar.md)); sizes are\n")
	b.WriteString("`10000000000`, `10g`, `100MB` or `64Ki`; durations Go's (`300ms`, `1m30s`).\n\n")
	b.WriteString("| command | what |\n|---|---|\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "| [`%s`](#httpvs-%s) | %s |\n", c.name, c.name, cell(c.summary))
	}
	b.WriteString("\n`httpvs --version` is `httpvs version`; `httpvs help COMMAND` is `httpvs COMMAND -h`.\n")
	for _, c := range commands {
		var captured *flagset.Set
		flagset.OnHelp = func(fs *flagset.Set) { captured = fs }
		code, _, stderr := runMain(t, c.name, "-h")
		flagset.OnHelp = nil
		if code != exitOK || captured == nil {
			t.Fatalf("httpvs %s -h: exit %d, %s", c.name, code, stderr)
		}
		fmt.Fprintf(&b, "\n## httpvs %s\n\n%s.\n\n```\n%s\n```\n", c.name, upperFirst(c.summary), captured.UsageLine())
		for _, s := range captured.HelpSections() {
			if s.Title != "" {
				fmt.Fprintf(&b, "\n### %s\n", upperFirst(s.Title))
			}
			b.WriteString("\n| flag | default | what |\n|---|---|---|\n")
			for _, e := range s.Entries {
				usage, def := splitDefault(e)
				names := "`" + strings.Join(e.Names, "`, `") + "`"
				if e.Type != "" {
					names += " *" + cell(e.Type) + "*"
				}
				fmt.Fprintf(&b, "| %s | %s | %s |\n", names, def, cell(usage))
			}
		}
	}
	return b.Bytes()
}

// splitDefault returns a flag's help without a closing "(default ...)"
// clause, and the default as the reference's column shows it: that
// clause, or the value the flag starts from.
func splitDefault(e flagset.HelpEntry) (usage, def string) {
	usage = e.Usage
	if strings.HasSuffix(usage, ")") {
		depth := 0
		for i := len(usage) - 1; i >= 0; i-- {
			switch usage[i] {
			case ')':
				depth++
			case '(':
				depth--
			}
			if depth == 0 {
				if clause, ok := strings.CutPrefix(usage[i+1:len(usage)-1], "default"); ok {
					clause = strings.TrimSpace(strings.TrimPrefix(clause, ":"))
					// A clause that gives the default by a rule ("--repeat
					// when that is given") leaves out the value it starts
					// from: say both.
					if v := e.Flag.DefValue; !slices.Contains([]string{"", "0", "0s", "false"}, v) && !strings.Contains(clause, v) {
						clause = "`" + v + "`; " + clause
					}
					return strings.TrimSpace(usage[:i]), cell(clause)
				}
				break
			}
		}
	}
	switch e.Flag.DefValue {
	case "false":
		return usage, "off"
	case "":
		return usage, "none"
	}
	return usage, "`" + e.Flag.DefValue + "`"
}

// cell makes text safe in a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", "\n", " ").Replace(s)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
