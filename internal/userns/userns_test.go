package userns

import (
	"context"
	"io"
	"os"
	"testing"
)

// TestRunOnceOnly: the re-executed program (Env set) and root run
// nothing again, so a program never nests namespaces.
func TestRunOnceOnly(t *testing.T) {
	t.Setenv(Env, "1")
	if Needed() {
		t.Fatal("Needed with the marker set")
	}
	if done, err := Run(context.Background(), []string{"run"}, io.Discard, io.Discard); done || err != nil {
		t.Fatalf("Run with the marker set: %v, %v; want nothing done", done, err)
	}
	os.Unsetenv(Env)
	if os.Geteuid() == 0 && Needed() {
		t.Fatal("Needed for root")
	}
}

func TestExitCodeSaysItsCode(t *testing.T) {
	if got := ExitCode(3).Error(); got != "exit status 3" {
		t.Fatalf("ExitCode(3) = %q", got)
	}
}
