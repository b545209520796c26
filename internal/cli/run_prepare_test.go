package cli

import (
	"io"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/knobs"

	"github.com/httpvs/httpvs/experiment"
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

// TestQuickIsTheDefaultMatrix: --quick alone asks for every scenario over
// every transport (by naming none, which the experiment takes as the
// default matrix), in Quick's one short round per cell, with Go as
// shipped and the tuned rows beside it.
func TestQuickIsTheDefaultMatrix(t *testing.T) {
	fs, f, err := parseRun(&env{stdout: io.Discard, stderr: io.Discard, name: "run"}, []string{"--quick"})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.prepare(fs); err != nil {
		t.Fatal(err)
	}
	xo := f.xo
	m, q := xo.Matrix, experiment.Quick().Matrix
	// Nothing named: the experiment measures every scenario over every
	// transport the child serves (experiment's TestFillQuickIsTheDefaultMatrix).
	if m.Protocols != nil || m.Scenarios != nil || xo.Requests != nil {
		t.Errorf("protocols %v, scenarios %d, requests %d: want none named", m.Protocols, len(m.Scenarios), len(xo.Requests))
	}
	if m.Repeat != q.Repeat || m.MaxRepeat != q.MaxRepeat || m.Duration != q.Duration || m.Warmup != q.Warmup {
		t.Errorf("repeat %d to %d, %v after %v warmup: want Quick's %d to %d, %v after %v",
			m.Repeat, m.MaxRepeat, m.Duration, m.Warmup, q.Repeat, q.MaxRepeat, q.Duration, q.Warmup)
	}
	if xo.NoTuned || m.Knobs.Name != knobs.GoDefault.Name {
		t.Errorf("knobs %q, no tuned rows %v: want Go as shipped, the tuned rows beside it", m.Knobs.Name, xo.NoTuned)
	}
}
