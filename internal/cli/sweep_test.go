package cli

import (
	"strings"
	"testing"
)

func TestOneLink(t *testing.T) {
	for _, tt := range []struct {
		in, want, err string
	}{
		{in: "4g", want: "4g"},
		{in: "4g,loss=2%", want: "4g,loss=2%"},
		{in: "rtt=40ms,loss=1%", want: "rtt=40ms,loss=1%"},
		{in: "4g,lossy,satellite", err: `--net "4g,lossy,satellite": one link per --net; for several links repeat the flag: --net 4g --net lossy --net satellite`},
		{in: "lan,4g,rtt=50ms;loss=1%", err: `one link per --net; for several links repeat the flag: --net lan --net 4g`},
		{in: "rtt=10ms;rtt=30ms", err: `--net "rtt=10ms;rtt=30ms": one link per --net; for several links repeat the flag: --net rtt=10ms --net rtt=30ms`},
		{in: " ", err: `--net "": want a link`},
	} {
		p, err := oneLink(tt.in)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("oneLink(%q): %v, want an error with %q", tt.in, err, tt.err)
		case tt.err == "" && (err != nil || p.Name != tt.want):
			t.Errorf("oneLink(%q) = %q, %v; want %q", tt.in, p.Name, err, tt.want)
		}
	}
	code, _, stderr := runMain(t, "run", "--net", "4g,lossy")
	if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") > 1 || !strings.Contains(stderr, "--net 4g --net lossy") {
		t.Errorf("run --net 4g,lossy: exit %d, %q: want 2 and one line saying to repeat the flag", code, stderr)
	}
	code, _, stderr = runMain(t, "tune", "--net", "4g", "--net", "lossy")
	if code != 2 || !strings.Contains(stderr, "tune searches across one link") {
		t.Errorf("tune with two --net: exit %d, %q: want 2 and why", code, stderr)
	}
}
