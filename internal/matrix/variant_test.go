package matrix

import (
	"context"
	"testing"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/runfiles"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// TestAlongsideMeasuresTheTunedVariant runs download and small-sequential
// from Go as shipped with the tuned set alongside: download gets a
// variant scenario right after it, every transport, whose client reads
// with tuned's 256 KiB buffer while the base cells read 8 KiB at a time;
// small-sequential gets none. Variant cells carry the set's name, pair
// with their own h1 and get no findings.
func TestAlongsideMeasuresTheTunedVariant(t *testing.T) {
	client := config.Client{}
	if err := (Setup{Client: &client}).Apply(runfiles.GoDefault.Knobs...); err != nil {
		t.Fatal(err)
	}
	tuned := runfiles.Tuned
	res, err := run(context.Background(), Options{Options: plan.Options{
		Target:    target(t, nil),
		Protocols: []transport.Protocol{transport.H1, transport.H2C},
		Scenarios: scenarios(t, "download,small-sequential"),
		Repeat:    2,
		Size:      4 * units.MiB,
		Duration:  50 * time.Millisecond,
		Client:    client,
		Knobs:     runfiles.GoDefault,
		Alongside: &tuned,
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"download", "download:tuned", "small-sequential"}
	if got := res.ScenarioNames(); len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("scenarios %v, want %v", got, want)
	}
	if res.Settings.Alongside == nil || res.Settings.Alongside.Name != "tuned" {
		t.Fatalf("settings.alongside %+v", res.Settings.Alongside)
	}
	checkVariantCells(t, res, "download", 8*units.KiB, "")
	checkVariantCells(t, res, "download:tuned", 256*units.KiB, "tuned")
	sc, ok := ScenarioByName("download:tuned")
	if !ok || sc.Name != "download:tuned" || scenariospec.Of(&sc).Knobs != "tuned" || !scenariospec.Transfer(sc.Metric) {
		t.Errorf("ScenarioByName(download:tuned) = %+v, %v", sc, ok)
	}
	if _, err := plan.ParseScenarios("download:tuned"); err == nil {
		t.Error("--scenarios took a variant's name; variants follow their base scenario")
	}
}

// checkVariantCells checks scenario name's h1 and h2c cells: two
// repetitions of 4 MiB each read with readSize buffers, the knob set
// named, h2c paired with its own h1 (diagnosis's tests hold that a
// variant gets no findings).
func checkVariantCells(t *testing.T, res *results.Results, name string, readSize units.Bytes, knobs string) {
	t.Helper()
	for _, p := range []string{"h1", "h2c"} {
		c := res.Cell(name, p)
		if c == nil || c.Skipped != "" || len(c.Repetitions) != 2 || c.Knobs != knobs {
			t.Fatalf("%s/%s: %+v", name, p, c)
		}
		for _, r := range c.Repetitions {
			if r.Bytes != int64(4*units.MiB) || r.Errors.Total != 0 {
				t.Errorf("%s/%s: %d bytes, errors %v", name, p, r.Bytes, r.Errors)
			}
			if r.ClientReadSize != int(readSize) {
				t.Errorf("%s/%s: client read size %d, want %d", name, p, r.ClientReadSize, readSize)
			}
		}
	}
	if c := res.Cell(name, "h2c"); c.VsH1 == nil || c.VsH1.Pairs != 2 {
		t.Errorf("%s/h2c: vs h1 %+v, want 2 pairs with its own h1", name, c.VsH1)
	}
}

// TestVariantsGetHalfTheRounds: a variant scenario starts with half the
// rounds (at least minStage, never more than Repeat); its base keeps
// Repeat.
func TestVariantsGetHalfTheRounds(t *testing.T) {
	base := plan.Scenarios[0]
	v := variant(base, "tuned", nil)
	for _, tc := range []struct{ repeat, base, variant int }{{12, 12, 6}, {8, 8, 5}, {6, 6, 5}, {3, 3, 3}, {1, 1, 1}} {
		o := Options{Options: plan.Options{Repeat: tc.repeat}}
		if got, gotV := o.repeat(base), o.repeat(v); got != tc.base || gotV != tc.variant {
			t.Errorf("Repeat %d: base %d, variant %d rounds; want %d, %d", tc.repeat, got, gotV, tc.base, tc.variant)
		}
	}
}
