package cli

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/matrix"
	"github.com/httpvs/httpvs/internal/runfiles"
	"github.com/httpvs/httpvs/internal/verdict"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/transport"
)

// TestQuickTakesWhatItSays: the time --quick's help and docs/run.md state
// is the default matrix's plan under experiment.Quick (matrix.EstimateRun,
// from the options' constants: no clock read) and at most 3 s more for
// the child's start and the checks, rounded to the nearest 5 s.
func TestQuickTakesWhatItSays(t *testing.T) {
	o := experiment.Quick()
	o.Matrix.Target = plan.Target{Plain: "http://127.0.0.1:1", TLS: "https://127.0.0.1:1", GRPC: "127.0.0.1:1"}
	o.Matrix.Protocols, o.Matrix.Scenarios, o.Matrix.AA = transport.All, plan.Scenarios, nil
	tuned := runfiles.Tuned // the rows a run as shipped measures beside its own
	o.Matrix.Alongside = &tuned
	est, err := matrix.EstimateRun(o.Matrix)
	if err != nil {
		t.Fatal(err)
	}
	var said float64
	if _, err := fmt.Sscanf(quickTakes, "about %g s", &said); err != nil {
		t.Fatalf("%q: %v", quickTakes, err)
	}
	if plan := est.Time.Seconds(); said < plan || said > plan+3 || math.Mod(said, 5) != 0 {
		t.Errorf("--quick says %q; its plan is %.1f s: want the plan to 3 s more, to the nearest 5 s", quickTakes, plan)
	}
	doc, err := os.ReadFile("../../docs/run.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), strings.TrimSuffix(quickTakes, ", longer under load")) {
		t.Errorf("docs/run.md does not say --quick takes %q", quickTakes)
	}
}

// TestCITakesWhatItSays: --ci's stated time is its plan (as
// TestQuickTakesWhatItSays checks --quick's) and it gives every cell the
// rounds compare's test needs.
func TestCITakesWhatItSays(t *testing.T) {
	o := experiment.CI()
	if o.Matrix.Repeat < verdict.CompareMinRounds || (o.Matrix.MaxRepeat != 0 && o.Matrix.MaxRepeat != o.Matrix.Repeat) {
		t.Errorf("CI: %d to %d rounds, want at least %d, fixed", o.Matrix.Repeat, o.Matrix.MaxRepeat, verdict.CompareMinRounds)
	}
	o.Matrix.Target = plan.Target{Plain: "http://127.0.0.1:1", TLS: "https://127.0.0.1:1", GRPC: "127.0.0.1:1"}
	o.Matrix.Protocols, o.Matrix.Scenarios, o.Matrix.AA = transport.All, plan.Scenarios, nil
	tuned := runfiles.Tuned
	o.Matrix.Alongside = &tuned
	est, err := matrix.EstimateRun(o.Matrix)
	if err != nil {
		t.Fatal(err)
	}
	var said float64
	if _, err := fmt.Sscanf(ciTakes, "about %g s", &said); err != nil {
		t.Fatalf("%q: %v", ciTakes, err)
	}
	if plan := est.Time.Seconds(); said < plan || said > plan+5 || math.Mod(said, 5) != 0 {
		t.Errorf("--ci says %q; its plan is %.1f s: want the plan to 5 s more, to the nearest 5 s", ciTakes, plan)
	}
}
