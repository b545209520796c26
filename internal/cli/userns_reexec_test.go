package cli

import (
	"context"
	"io"
	"os"
	"testing"
)

// TestUserNSRunsOnceOnly: the re-executed program (usernsEnv set) and root run
// nothing again, so a program never nests namespaces.
func TestUserNSRunsOnceOnly(t *testing.T) {
	t.Setenv(usernsEnv, "1")
	if usernsNeeded() {
		t.Fatal("usernsNeeded with the marker set")
	}
	if done, err := usernsRun(context.Background(), []string{"run"}, io.Discard, io.Discard); done || err != nil {
		t.Fatalf("usernsRun with the marker set: %v, %v; want nothing done", done, err)
	}
	os.Unsetenv(usernsEnv)
	if os.Geteuid() == 0 && usernsNeeded() {
		t.Fatal("usernsNeeded for root")
	}
}

func TestUserNSExitSaysItsCode(t *testing.T) {
	if got := usernsExit(3).Error(); got != "exit status 3" {
		t.Fatalf("usernsExit(3) = %q", got)
	}
}
