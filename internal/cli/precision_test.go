package cli

import (
	"strings"
	"testing"
)

// TestPrecisionOption: --precision takes a positive percentage, with or
// without its sign, and refuses anything else in one line saying what
// would do; its range is the experiment's (TestRunBadInput).
func TestPrecisionOption(t *testing.T) {
	for in, want := range map[string]float64{"10%": 0.10, "10": 0.10, " 25% ": 0.25} {
		if got, err := precisionOption(in); err != nil || got != want {
			t.Errorf("--precision %q: %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "ten", "0%", "-5"} {
		if _, err := precisionOption(in); err == nil || !strings.Contains(err.Error(), "want a half-width in percent") {
			t.Errorf("--precision %q: %v; want a usage error saying what would do", in, err)
		}
	}
}
