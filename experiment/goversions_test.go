package experiment_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/goversions"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/transport"
)

// TestRunGoVersions: with Go's Versions, Run measures the scenarios with
// a server and a client built by each toolchain (here the installed one,
// built into a cache of the test's own) and records Quick's rounds, as
// `httpvs run --go installed --quick` does.
func TestRunGoVersions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the child with a toolchain: not under -short")
	}
	version, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	o := experiment.Quick()
	o.Go.Versions = []string{goversions.Installed}
	o.Go.CacheDir = t.TempDir()
	o.Matrix.Protocols = []transport.Protocol{transport.H1, transport.H2C}
	if o.Matrix.Scenarios, err = plan.ParseScenarios("small-sequential"); err != nil {
		t.Fatal(err)
	}
	res, err := experiment.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	gv := res.GoVersions
	if res.Partial || gv == nil || len(gv.Toolchains) != 1 || gv.Toolchains[0].BinaryGo != strings.TrimSpace(string(version)) || len(gv.Cells) != 2 {
		t.Fatalf("partial %v (%s), go versions %+v: want the installed toolchain's two cells", res.Partial, res.PartialReason, gv)
	}
	if iv := gv.Cells[1].VsH1; gv.Cells[1].Protocol != "h2c" || iv == nil || iv.Pairs != experiment.QuickGoRounds {
		t.Errorf("h2c's ratio to h1: %+v, want %d pairs", iv, experiment.QuickGoRounds)
	}
	s := res.Settings
	if s.Repeat != experiment.QuickGoRounds || s.MaxRepeat != experiment.QuickGoRounds || s.DurationSeconds != experiment.QuickDuration.Seconds() ||
		s.WarmupSeconds != experiment.QuickWarmup.Seconds() || strings.Join(s.Protocols, ",") != "h1,h2c" || strings.Join(s.Scenarios, ",") != "small-sequential" {
		t.Errorf("settings %+v: want Quick's rounds across versions", s)
	}
}

// TestRunGoVersionsInterrupted: interrupted before a toolchain started,
// Run returns results marked partial, each toolchain saying it was not
// started, and no error.
func TestRunGoVersionsInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	o := experiment.Quick()
	o.Go.Versions = []string{goversions.Installed, "go1.27.4"}
	o.Go.CacheDir = t.TempDir()
	res, err := experiment.Run(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Partial || res.GoVersions == nil || len(res.GoVersions.Toolchains) != 2 || !strings.HasPrefix(res.GoVersions.Toolchains[1].Error, "not started") {
		t.Fatalf("partial %v, go versions %+v: want both toolchains listed, not started", res.Partial, res.GoVersions)
	}
}
