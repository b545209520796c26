package cli

import (
	"io"
	"testing"
	"time"

	"github.com/httpvs/httpvs/experiment"
)

// TestGoOptions: run --go's flags map to experiment.Options as run's
// do, once: Quick's rounds under --quick, the flags given over them, and
// zero (goversions' defaults) for the rest.
func TestGoOptions(t *testing.T) {
	type rounds struct {
		repeat, maxRepeat        int
		duration, warmup, budget time.Duration
	}
	quick := experiment.Quick().Matrix
	for _, tt := range []struct {
		args []string
		want rounds
	}{
		{[]string{"--go", "1.27.4"}, rounds{}},
		{[]string{"--go", "1.27.4", "--quick"}, rounds{repeat: quick.Repeat, duration: quick.Duration, warmup: quick.Warmup}},
		{[]string{"--go", "1.27.4", "--quick", "--repeat", "5"}, rounds{repeat: 5, duration: experiment.QuickDuration, warmup: experiment.QuickWarmup}},
		{[]string{"--go", "1.27.4", "--repeat", "1", "--max-repeat", "9"}, rounds{repeat: 1, maxRepeat: 9}},
		{[]string{"--go", "1.27.4", "--duration", "1s", "--warmup", "2s", "--budget", "0"}, rounds{duration: time.Second, warmup: 2 * time.Second, budget: -1}},
		{[]string{"--go", "1.27.4", "--budget", "5m"}, rounds{budget: 5 * time.Minute}},
	} {
		fs := newFlagSet(&env{stdout: io.Discard, stderr: io.Discard}, "run", "[flags]")
		var f runFlags
		f.register(fs)
		if _, err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		xo, err := f.goOptions(fs)
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if got := xo.Go.Versions; len(got) != 1 || got[0] != "go1.27.4" {
			t.Errorf("%q: versions %q, want go1.27.4", tt.args, got)
		}
		m := xo.Matrix
		if got := (rounds{m.Repeat, m.MaxRepeat, m.Duration, m.Warmup, xo.Budget}); got != tt.want {
			t.Errorf("%q: %+v, want %+v", tt.args, got, tt.want)
		}
		if len(m.Protocols) != 0 || len(m.Scenarios) != 0 {
			t.Errorf("%q: protocols %v, scenarios %d: want goversions' own (none set)", tt.args, m.Protocols, len(m.Scenarios))
		}
	}
}
