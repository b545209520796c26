package cli

import (
	"io"
	"testing"
	"time"
)

// TestRunAliasSetsTheMatrix: a flag given by another spelling (-d for
// --duration) sets the matrix as its primary spelling does.
func TestRunAliasSetsTheMatrix(t *testing.T) {
	fs := newFlagSet(&env{stdout: io.Discard, stderr: io.Discard, name: "run"}, "[flags]")
	var f runFlags
	f.register(fs)
	if _, err := fs.Parse([]string{"-d", "300ms", "--quick"}); err != nil {
		t.Fatal(err)
	}
	xo, err := f.prepare(fs)
	if err != nil {
		t.Fatal(err)
	}
	if xo.Matrix.Duration != 300*time.Millisecond {
		t.Errorf("-d 300ms: matrix duration %v", xo.Matrix.Duration)
	}
}
