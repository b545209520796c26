package cli

import (
	"io"
	"testing"
	"time"
)

// TestRunAliasSetsTheMatrix: a flag given by another spelling (-d for
// --duration) sets the matrix as its primary spelling does.
func TestRunAliasSetsTheMatrix(t *testing.T) {
	fs, f, err := parseRun(&env{stdout: io.Discard, stderr: io.Discard, name: "run"}, []string{"-d", "300ms", "--quick"})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.prepare(fs); err != nil {
		t.Fatal(err)
	}
	if xo := f.xo; xo.Matrix.Duration != 300*time.Millisecond {
		t.Errorf("-d 300ms: matrix duration %v", xo.Matrix.Duration)
	}
}

// TestRunProfileWithDefaultRounds: --profile goes with the experiment's
// own rounds (zero Repeat, several rounds); one round per cell, which
// gives no verdict to profile, is refused.
func TestRunProfileWithDefaultRounds(t *testing.T) {
	e := &env{stdout: io.Discard, stderr: io.Discard, name: "run"}
	for _, tt := range []struct {
		args []string
		ok   bool
	}{
		{[]string{"--profile", t.TempDir()}, true},
		{[]string{"--profile", t.TempDir(), "--repeat", "3"}, true},
		{[]string{"--profile", t.TempDir(), "--quick"}, false},
		{[]string{"--profile", t.TempDir(), "--repeat", "1"}, false},
	} {
		fs, f, err := parseRun(e, tt.args)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.prepare(fs); (err == nil) != tt.ok {
			t.Errorf("%q: %v, want accepted %v", tt.args, err, tt.ok)
		}
	}
}
