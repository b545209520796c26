package experiment_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/goversions"
	"github.com/httpvs/httpvs/transport"
)

// TestVersions: Versions measures the scenarios with a server and a
// client built by each toolchain (here the installed one, built into a
// cache of the test's own) and records QuickVersions' rounds, as `httpvs
// run --go installed --quick` does.
func TestVersions(t *testing.T) {
	t.Parallel() // see TestMain
	if testing.Short() {
		t.Skip("builds the child with a toolchain: not under -short")
	}
	version, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	o := experiment.QuickVersions(goversions.Installed)
	o.CacheDir = t.TempDir()
	o.Protocols = []transport.Protocol{transport.H1, transport.H2C}
	o.Scenarios = []string{"small-sequential"}
	res, err := experiment.Versions(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	gv := res.GoVersions
	if res.Partial || gv == nil || len(gv.Toolchains) != 1 || gv.Toolchains[0].BinaryGo != strings.TrimSpace(string(version)) || len(gv.Cells) != 2 {
		t.Fatalf("partial %v (%s), go versions %+v: want the installed toolchain's two cells", res.Partial, res.PartialReason, gv)
	}
	if iv := gv.Cells[1].VsBaseline; gv.Cells[1].Protocol != "h2c" || iv == nil || iv.Pairs != defaults.QuickGoRounds {
		t.Errorf("h2c's ratio to h1: %+v, want %d pairs", iv, defaults.QuickGoRounds)
	}
	s := res.Settings
	if s.Repeat != defaults.QuickGoRounds || s.MaxRepeat != defaults.QuickGoRounds || s.DurationSeconds != defaults.QuickDuration.Seconds() ||
		s.WarmupSeconds != defaults.QuickWarmup.Seconds() || strings.Join(s.Protocols, ",") != "h1,h2c" || strings.Join(s.Scenarios, ",") != "small-sequential" {
		t.Errorf("settings %+v: want Quick's rounds across versions", s)
	}
}

// TestVersionsInterrupted: interrupted before a toolchain started,
// Versions returns results marked partial, each toolchain saying it was not
// started, and no error.
func TestVersionsInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	o := experiment.QuickVersions(goversions.Installed, "go1.27.4")
	o.CacheDir = t.TempDir()
	res, err := experiment.Versions(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Partial || res.GoVersions == nil || len(res.GoVersions.Toolchains) != 2 || !strings.HasPrefix(res.GoVersions.Toolchains[1].Error, "not started") {
		t.Fatalf("partial %v, go versions %+v: want both toolchains listed, not started", res.Partial, res.GoVersions)
	}
}
