package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/vocab"
)

// TestQuickTakesWhatItSays: --quick's help states the default matrix's
// plan under experiment.Quick (matrix.EstimateRun, from the options'
// constants: no clock read), and names no machine.
func TestQuickTakesWhatItSays(t *testing.T) {
	checkTakes(t, "quick", experiment.Quick())
}

// checkTakes checks that flag's help states o's plan and no machine.
func checkTakes(t *testing.T, flag string, o experiment.Options) {
	t.Helper()
	est, err := presetPlan(o)
	if err != nil {
		t.Fatal(err)
	}
	_, stdout, _ := runMain(t, "run", "-h")
	help := strings.Join(strings.Fields(stdout), " ")
	i := strings.Index(help, "--"+flag+" ")
	if i < 0 {
		t.Fatalf("run -h has no --%s", flag)
	}
	line := help[i:min(i+400, len(help))]
	if want := fmt.Sprintf("planned at %.0f s of cells", est.Seconds()); !strings.Contains(line, want) {
		t.Errorf("--%s's help %q lacks %q", flag, line, want)
	}
	if strings.Contains(line, "core") {
		t.Errorf("--%s's help names a machine: %q", flag, line)
	}
}

// TestCITakesWhatItSays: --ci's stated time is its plan (as
// TestQuickTakesWhatItSays checks --quick's) and it gives every cell the
// rounds compare's test needs.
func TestCITakesWhatItSays(t *testing.T) {
	o := experiment.CI()
	if o.Matrix.Repeat < vocab.CompareMinRounds || (o.Matrix.MaxRepeat != 0 && o.Matrix.MaxRepeat != o.Matrix.Repeat) {
		t.Errorf("CI: %d to %d rounds, want at least %d, fixed", o.Matrix.Repeat, o.Matrix.MaxRepeat, vocab.CompareMinRounds)
	}
	if o.Budget >= 0 {
		t.Errorf("CI: budget %v, want none (negative): a budget would pace a slower runner's rounds", o.Budget)
	}
	checkTakes(t, "ci", o)
}
