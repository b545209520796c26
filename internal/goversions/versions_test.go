package goversions

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

func TestParseVersions(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		bad  string // a word of the error's reason
	}{
		{in: "1.24.13,1.26.11,1.27.4", want: []string{"go1.24.13", "go1.26.11", "go1.27.4"}},
		{in: "installed, go1.27.4", want: []string{"installed", "go1.27.4"}},
		{in: "1.25rc1", want: []string{"go1.25rc1"}},
		{in: "1.22.0", want: []string{"go1.22.0"}},
		{in: "1.21.13", bad: "older than go1.22"},
		{in: "1.24", bad: "name a release, such as 1.24.0"},
		{in: "latest", bad: "want installed or a Go release"},
		{in: "1.24.13,,1.27.4", bad: "without empty items"},
		{in: "1.27.4,go1.27.4", bad: "listed twice"},
		{in: "go1.27.4 linux", bad: "want installed"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseVersions(tc.in)
			if tc.bad != "" {
				var ve *VersionError
				if !errors.As(err, &ve) || !strings.Contains(err.Error(), tc.bad) {
					t.Fatalf("ParseVersions(%q) = %v, %v; want a *VersionError saying %q", tc.in, got, err, tc.bad)
				}
				return
			}
			if err != nil || strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("ParseVersions(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			}
		})
	}
	var many []string
	for i := range MaxVersions + 1 {
		many = append(many, fmt.Sprintf("1.24.%d", i))
	}
	if _, err := ParseVersions(strings.Join(many, ",")); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Fatalf("%d versions: %v, want at most %d", len(many), err, MaxVersions)
	}
}

func TestGoLine(t *testing.T) {
	for in, want := range map[string]string{"go1.24.13": "1.24.13", "go1.25rc1": "1.25rc1", "devel go1.27-abc": "1.22"} {
		if got := goLine(in); got != want {
			t.Errorf("goLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSizeFor(t *testing.T) {
	o := Options{Duration: DefaultDuration}
	// 400 MB/s for 250 ms: 100 MB, in whole MiB.
	if got := sizeFor(result{Bytes: 400e6, Seconds: 1}, o); got != 95*int64(units.MiB) {
		t.Errorf("sizeFor 400 MB/s = %d, want 95 MiB", got)
	}
	if got := sizeFor(result{Bytes: 1, Seconds: 10}, o); got != int64(minSize) {
		t.Errorf("sizeFor a crawl = %d, want minSize", got)
	}
	o.Size = 3 * units.MiB
	if got := sizeFor(result{Bytes: 400e6, Seconds: 1}, o); got != int64(3*units.MiB) {
		t.Errorf("sizeFor with Size = %d, want Size", got)
	}
}

// TestChanges builds two toolchains' cells by hand: h2c at a quarter of
// h1 on the first and half on the second, with h1 the same, so the
// change of h2c's ratio is exactly 2 and h1's figure exactly 1.
func TestChanges(t *testing.T) {
	r := &runner{scenarios: []string{Download}, protocols: []transport.Protocol{transport.H1, transport.H2C}, baseline: transport.H1,
		out: &results.GoVersions{}, cells: map[key]*results.Cell{}}
	for v, name := range []string{"go1.26.8", "go1.27.4"} {
		r.toolchains = append(r.toolchains, &toolchainRun{tc: &results.GoToolchain{Toolchain: name}})
		for _, p := range r.protocols {
			c := &results.Cell{Scenario: Download, Protocol: p.String(), Metric: results.MetricBytesPerSecond}
			for n := 1; n <= 4; n++ {
				h1 := 1e9 * (1 + 0.1*float64(n)) // drift, alike for both
				value := h1
				if p == transport.H2C {
					value = h1 / 4 * float64(v+1)
				}
				c.Repetitions = append(c.Repetitions, results.Repetition{Round: n, Value: value})
			}
			r.cells[key{Download, v, p}] = c
			r.order = append(r.order, key{Download, v, p})
		}
	}
	r.finish()
	if len(r.out.Cells) != 4 || len(r.out.Changes) != 2 {
		t.Fatalf("%d cells, %d changes; want 4 and 2", len(r.out.Cells), len(r.out.Changes))
	}
	checkChangeCells(t, r.out.Cells)
	checkChanges(t, r.out.Changes)
	if !r.settled(Download) {
		t.Error("exact ratios are not settled")
	}
}

// near says whether a and b are equal but for floating-point rounding.
func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// checkChangeCells checks TestChanges' h2c cells: a quarter of h1 on the
// first toolchain and half on the second, over 4 pairs.
func checkChangeCells(t *testing.T, cells []results.GoVersionCell) {
	t.Helper()
	for _, c := range cells {
		want := map[string]float64{"go1.26.8": 0.25, "go1.27.4": 0.5}[c.Toolchain]
		if c.Protocol == "h2c" && (c.VsBaseline == nil || !near(c.VsBaseline.Ratio, want) || c.VsBaseline.Pairs != 4) {
			t.Errorf("%s h2c VsH1 = %+v, want ratio %v over 4 pairs", c.Toolchain, c.VsBaseline, want)
		}
	}
}

// checkChanges checks TestChanges' changes from the first toolchain to the
// second: h1's figure unchanged and no ratio; h2c's figure and ratio twice
// as fast.
func checkChanges(t *testing.T, changes []results.GoVersionChange) {
	t.Helper()
	for _, ch := range changes {
		if ch.From != "go1.26.8" || ch.To != "go1.27.4" {
			t.Errorf("change %s -> %s, want go1.26.8 -> go1.27.4", ch.From, ch.To)
		}
		switch ch.Protocol {
		case "h1":
			if !near(ch.Figure.Ratio, 1) || ch.Ratio != nil {
				t.Errorf("h1 change = %+v, want figure 1 and no ratio", ch)
			}
		case "h2c":
			if !near(ch.Figure.Ratio, 2) || ch.Ratio == nil || !near(ch.Ratio.Ratio, 2) || ch.Ratio.Verdict != results.VerdictFaster {
				t.Errorf("h2c change = %+v, ratio %+v; want 2x faster", ch, ch.Ratio)
			}
		}
	}
}

// TestWithDefaultsRefusesNothingMeasured: lists with nothing measured
// across versions (h3 alone, no download or small-sequential) are a
// *config.FieldError naming the list, before anything is built; one
// measured item among others passes.
func TestWithDefaultsRefusesNothingMeasured(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		o     Options
		field string
	}{
		{Options{Protocols: []transport.Protocol{transport.H3}}, "Protocols"},
		{Options{Scenarios: []string{"upload", "multiplex"}}, "Scenarios"},
		{Options{Protocols: []transport.Protocol{transport.H3, transport.H2C}, Scenarios: []string{"upload", Download}}, ""},
	} {
		tc.o.CacheDir = dir
		_, err := tc.o.WithDefaults()
		var fe *config.FieldError
		switch {
		case tc.field == "" && err != nil:
			t.Errorf("%+v: %v", tc.o, err)
		case tc.field != "" && (!errors.As(err, &fe) || fe.Field != tc.field):
			t.Errorf("%+v: %v, want a field error naming %s", tc.o, err, tc.field)
		}
	}
}
