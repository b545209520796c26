package cli

import (
	"strings"
	"testing"
)

// TestHelpListsDefaults: every command's help lists its flags, every
// spelling on one line, with its default.
func TestHelpListsDefaults(t *testing.T) {
	for cmd, want := range map[string][]string{
		"get":     {"-n, --requests int", "-P, --parallel int", "-c, --conns int", "(default 10m0s)", "-H, --header"},
		"put":     {"--body size|@file", "--write-size size", "-k, --insecure"},
		"load":    {"-c, --conns int", "(default 10)", "-d, --duration duration", "--body size|@file", "-H, --header"},
		"run":     {"--rep-timeout duration", "(default 2m0s)", "--repeat int", "(default 4)", "4Mi, unless a --knobs file sets it"},
		"tune":    {"--trial duration", "(default 300ms)", "--json"},
		"serve":   {"--max-conns int", "(default 10000)", "-v, --verbose"},
		"compare": {"--json"},
		"merge":   {"--json"},
		"version": {"--json"},
	} {
		code, stdout, _ := runMain(t, cmd, "-h")
		if code != 0 {
			t.Errorf("%s -h: exit %d", cmd, code)
		}
		for _, w := range want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%s -h lacks %q:\n%s", cmd, w, stdout)
			}
		}
	}
}

// TestHelpGroupedByPurpose: the commands with many flags list every one
// under a heading that says what it is for, and say the defaults they
// really use (load's std and fast read buffers; Go's client and server windows).
func TestHelpGroupedByPurpose(t *testing.T) {
	for cmd, want := range map[string][]string{
		"get":   {"what to transfer:", "how many and how long:", "client knobs (", "output:", "(default Go's client's, 4Mi)"},
		"put":   {"what to transfer:", "--body size|@file", "client knobs ("},
		"load":  {"what to send:", "how much and how long:", "several generators", "(default: std 8Ki as Go as shipped reads; fast 64Ki", "client knobs (Go as shipped unless set)"},
		"serve": {"where it listens:", "limits:", "server knobs (", "(default Go's server's, 1Mi)"},
		"tune":  {"what to tune", "how long:", "the link", "output:"},
	} {
		code, stdout, _ := runMain(t, cmd, "-h")
		if code != 0 {
			t.Errorf("%s -h: exit %d", cmd, code)
		}
		if strings.Contains(stdout, "\nother:\n") {
			t.Errorf("%s -h lists flags in no group:\n%s", cmd, stdout)
		}
		for _, w := range want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%s -h lacks %q:\n%s", cmd, w, stdout)
			}
		}
	}
}
