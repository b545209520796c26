package cli

import (
	"io"
	"testing"
	"time"

	"github.com/httpvs/httpvs/experiment"
)

// TestGoOptions: run --go's flags map to experiment.Options once: Quick's
// rounds across versions under --quick, the flags given over them, and
// goversions' defaults (zero) for the rest.
func TestGoOptions(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want experiment.GoOptions
	}{
		{[]string{"--go", "1.27.4"}, experiment.GoOptions{}},
		{[]string{"--go", "1.27.4", "--quick"}, experiment.Quick().Go},
		{[]string{"--go", "1.27.4", "--quick", "--repeat", "5"}, experiment.GoOptions{Rounds: 5, MaxRounds: 5, Duration: experiment.QuickDuration}},
		{[]string{"--go", "1.27.4", "--repeat", "1", "--max-repeat", "9"}, experiment.GoOptions{Rounds: 2, MaxRounds: 9}},
		{[]string{"--go", "1.27.4", "--duration", "1s", "--warmup", "2s", "--budget", "0"}, experiment.GoOptions{Duration: time.Second, Warmup: 2 * time.Second, Budget: -1}},
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
		got := xo.Go
		if len(got.Versions) != 1 || got.Versions[0] != "go1.27.4" {
			t.Errorf("%q: versions %q, want go1.27.4", tt.args, got.Versions)
		}
		got.Versions = nil
		if got.Rounds != tt.want.Rounds || got.MaxRounds != tt.want.MaxRounds || got.Duration != tt.want.Duration || got.Warmup != tt.want.Warmup || got.Budget != tt.want.Budget {
			t.Errorf("%q: %+v, want %+v", tt.args, got, tt.want)
		}
	}
}
