package matrix

import (
	"context"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/knobs"

	"github.com/httpvs/httpvs/config"
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
	if err := (knobs.Setup{Client: &client}).Apply(knobs.GoDefault.Knobs...); err != nil {
		t.Fatal(err)
	}
	tuned := knobs.Tuned
	res, err := run(context.Background(), Options{Options: plan.Options{
		Protocols: []transport.Protocol{transport.H1, transport.H2C},
		Scenarios: scenarios(t, "download,small-sequential"),
		Repeat:    2,
		Size:      4 * units.MiB,
		Duration:  50 * time.Millisecond,
		Client:    client,
		Knobs:     knobs.GoDefault,
		Alongside: &tuned,
	}, Wiring: Wiring{Target: target(t, nil)}})
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
	checkTunedPairs(t, res)
	sc, ok := ScenarioByName("download:tuned")
	if !ok || sc.Name != "download:tuned" || scenariospec.Of(&sc).Knobs != "tuned" || !scenariospec.Transfer(sc.Metric) {
		t.Errorf("ScenarioByName(download:tuned) = %+v, %v", sc, ok)
	}
	if _, err := plan.ParseScenarios("download:tuned"); err == nil {
		t.Error("--scenarios took a variant's name; variants follow their base scenario")
	}
}

// checkTunedPairs checks that download:tuned was measured in the same
// rounds as download: its gain pairs round by round with the shipped cell
// of its transport.
func checkTunedPairs(t *testing.T, res *results.Results) {
	t.Helper()
	for _, p := range []string{"h1", "h2c"} {
		shipped, tuned := res.Cell("download", p), res.Cell("download:tuned", p)
		for i, r := range tuned.Repetitions {
			if r.Round != shipped.Repetitions[i].Round {
				t.Errorf("%s: tuned repetition %d in round %d, shipped in %d", p, i, r.Round, shipped.Repetitions[i].Round)
			}
		}
		if g := tuned.TunedGain; g == nil || g.Shipped != "download" || g.Gain.Pairs != 2 || g.Word == "" {
			t.Errorf("%s: tuned gain %+v, want 2 pairs over download's with a word", p, g)
		}
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
	if c := res.Cell(name, "h2c"); c.VsBaseline == nil || c.VsBaseline.Pairs != 2 {
		t.Errorf("%s/h2c: vs h1 %+v, want 2 pairs with its own h1", name, c.VsBaseline)
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

// TestUploadGetsNoVariant: the tuned knobs act on what the client
// receives; an upload's client sends, so upload gets no tuned row.
func TestUploadGetsNoVariant(t *testing.T) {
	up, ok := ScenarioByName("upload")
	if !ok || !spec(&up).Upload {
		t.Fatalf("upload: %+v, %v", up, ok)
	}
	down, _ := ScenarioByName("download")
	if variantOf(up) || !variantOf(down) {
		t.Fatalf("variants: upload %v, download %v; want download only", variantOf(up), variantOf(down))
	}
	if _, ok := ScenarioByName("upload:tuned"); ok {
		t.Error("upload:tuned still names a scenario")
	}
}

// TestAddedRoundsKeepTheVariantPaired: a round added to a scenario with a
// tuned variant measures the variant's columns of the same transports,
// its baseline whatever its rounds, others below the most rounds a cell
// gets; a scenario without one measures its own alone.
func TestAddedRoundsKeepTheVariantPaired(t *testing.T) {
	vals := []float64{100, 100, 100, 100}
	sr := roundsOf([]string{"h1", "h2c", "h3"}, vals, vals, vals)
	v := roundsOf([]string{"h1", "h2c", "h3"}, vals, vals, []float64{100, 100})
	if parts := sr.withPartner([]bool{true, true, false}, 4, "h1"); len(parts) != 1 {
		t.Fatalf("%d parts without a partner", len(parts))
	}
	sr.partner, v.partner = v, sr
	parts := sr.withPartner([]bool{true, true, true}, 4, "h1")
	if len(parts) != 2 || parts[1].sr != v || !parts[1].which[0] || parts[1].which[1] || !parts[1].which[2] {
		t.Fatalf("parts %+v: want the variant's h1 (the baseline, at 4 rounds) and h3 (2 rounds), not h2c (4)", parts)
	}
}
