package cli

import (
	"io"
	"testing"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/defaults"
)

// TestVersionsOptions: run --go's flags map to
// experiment.VersionsOptions as run's do, once: QuickVersions' rounds
// under --quick, the flags given over them, and zero (the library's
// defaults) for the rest.
func TestVersionsOptions(t *testing.T) {
	type rounds struct {
		repeat, maxRepeat        int
		duration, warmup, budget time.Duration
	}
	quick := experiment.QuickVersions()
	for _, tt := range []struct {
		args []string
		want rounds
	}{
		{[]string{"--go", "1.27.4"}, rounds{}},
		// MaxRounds zero is Rounds (the library's rule), as QuickVersions' are.
		{[]string{"--go", "1.27.4", "--quick"}, rounds{repeat: quick.Rounds, duration: quick.Duration, warmup: quick.Warmup}},
		{[]string{"--go", "1.27.4", "--quick", "--warmup", "0"}, rounds{repeat: quick.Rounds, duration: quick.Duration}},
		{[]string{"--go", "1.27.4", "--quick", "--repeat", "5"}, rounds{repeat: 5, duration: defaults.QuickDuration, warmup: defaults.QuickWarmup}},
		{[]string{"--go", "1.27.4", "--repeat", "1", "--max-repeat", "9"}, rounds{repeat: 1, maxRepeat: 9}},
		{[]string{"--go", "1.27.4", "--duration", "1s", "--warmup", "2s", "--budget", "0"}, rounds{duration: time.Second, warmup: 2 * time.Second, budget: -1}},
		{[]string{"--go", "1.27.4", "--budget", "5m"}, rounds{budget: 5 * time.Minute}},
	} {
		fs, f, err := parseRun(&env{stdout: io.Discard, stderr: io.Discard, name: "run"}, tt.args)
		if err != nil {
			t.Fatal(err)
		}
		vo, err := f.versionsOptions(fs)
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if got := vo.Versions; len(got) != 1 || got[0] != "go1.27.4" {
			t.Errorf("%q: versions %q, want go1.27.4", tt.args, got)
		}
		if got := (rounds{vo.Rounds, vo.MaxRounds, vo.Duration, vo.Warmup, vo.Budget}); got != tt.want {
			t.Errorf("%q: %+v, want %+v", tt.args, got, tt.want)
		}
		if len(vo.Protocols) != 0 || len(vo.Scenarios) != 0 {
			t.Errorf("%q: protocols %v, scenarios %q: want the library's own (none set)", tt.args, vo.Protocols, vo.Scenarios)
		}
	}
}
