package attribution_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/attribution"

	"github.com/google/pprof/profile"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// cpuProfile builds a CPU profile holding, for each function named,
// samples of its own time in milliseconds.
func cpuProfile(t *testing.T, ms map[string]int64) []byte {
	t.Helper()
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10_000_000,
	}
	var id uint64
	for name, v := range ms {
		id++
		fn := &profile.Function{ID: id, Name: name, SystemName: name}
		loc := &profile.Location{ID: id, Line: []profile.Line{{Function: fn}}}
		p.Function = append(p.Function, fn)
		p.Location = append(p.Location, loc)
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{loc}, Value: []int64{v / 10, v * 1_000_000}})
	}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestCompare attributes a cell's extra CPU per unit (1.0 s per unit
// against 0.5 over twice the work): what grew (0.6) and what shrank (0.1),
// each function and area at its measured change, shares of the growth
// only, and a line whose figures add up as printed.
func TestCompare(t *testing.T) {
	base := cpuProfile(t, map[string]int64{
		"syscall.Syscall":        200, // 0.1 s/unit over 2 units
		"net/http.(*conn).serve": 400, // 0.2
		"runtime.mallocgc":       400, // 0.2
	})
	cell := cpuProfile(t, map[string]int64{
		"syscall.Syscall":                         300, // 0.3 s/unit over 1 unit: +0.2
		"net/http.(*http2Framer).WriteDataPadded": 250, // +0.25
		"net/http.(*conn).serve":                  100, // 0.1: shrank by 0.1
		"runtime.mallocgc":                        340, // +0.14
		"crypto/aes.gcmAesEnc":                    10,  // +0.01: under 3% of the growth, unnamed
	})
	s, err := attribution.Compare("server", attribution.Sample{Profile: cell, Units: 1}, attribution.Sample{Profile: base, Units: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !near(s.SecondsPerUnit, 1.0) || !near(s.BaseSecondsPerUnit, 0.5) || !near(s.ExtraSecondsPerUnit, 0.5) {
		t.Fatalf("per unit %g vs %g, extra %g: want 1.0 vs 0.5, 0.5", s.SecondsPerUnit, s.BaseSecondsPerUnit, s.ExtraSecondsPerUnit)
	}
	if !near(s.GrowthSecondsPerUnit, 0.6) || !near(s.ShrinkageSecondsPerUnit, 0.1) || !near(s.FunctionGrowthSecondsPerUnit, 0.6) || !near(s.FunctionShrinkageSecondsPerUnit, 0.1) {
		t.Fatalf("%+v: want 0.6 grew, 0.1 shrank", s)
	}
	want := []results.AttributionShare{
		{Name: "net/http.(*http2Framer).WriteDataPadded", Area: attribution.AreaHTTP2, SecondsPerUnit: 0.25, ChangeSecondsPerUnit: 0.25, Share: 0.25 / 0.6},
		{Name: "syscall.Syscall", Area: attribution.AreaSyscall, SecondsPerUnit: 0.3, BaseSecondsPerUnit: 0.1, ChangeSecondsPerUnit: 0.2, Share: 0.2 / 0.6},
		{Name: "runtime.mallocgc", Area: attribution.AreaGC, SecondsPerUnit: 0.34, BaseSecondsPerUnit: 0.2, ChangeSecondsPerUnit: 0.14, Share: 0.14 / 0.6},
	}
	checkShares(t, "grew", s.Functions, want)
	checkShares(t, "shrank", s.ShrunkFunctions, []results.AttributionShare{
		{Name: "net/http.(*conn).serve", Area: attribution.AreaHTTP1, SecondsPerUnit: 0.1, BaseSecondsPerUnit: 0.2, ChangeSecondsPerUnit: -0.1, Share: 1},
	})
	if len(s.Areas) != 3 || s.Areas[0].Name != attribution.AreaHTTP2 || s.Areas[1].Name != attribution.AreaSyscall || s.Areas[2].Name != attribution.AreaGC {
		t.Errorf("areas %+v: want HTTP/2, syscalls, GC", s.Areas)
	}
	if len(s.ShrunkAreas) != 1 || s.ShrunkAreas[0].Name != attribution.AreaHTTP1 || !near(s.ShrunkAreas[0].ChangeSecondsPerUnit, -0.1) {
		t.Errorf("shrunk areas %+v: want net/http -0.1", s.ShrunkAreas)
	}
	line := analysis.AttributionSummary(s, "GB")
	wantLine := "server +0.50 s/GB (1.00 vs 0.50) = 0.60 grew - 0.10 shrank; " +
		"grew: HTTP/2 (net/http) +0.25 (42% of the growth), syscalls and the netpoller +0.20 (33%), runtime (GC, allocation) +0.14 (23%), 0.01 in smaller changes; " +
		"shrank: net/http -0.10 (100% of the shrinkage); " +
		"functions: net/http.(*http2Framer).WriteDataPadded +0.25, syscall.Syscall +0.20, runtime.mallocgc +0.14, net/http.(*conn).serve -0.10"
	if line != wantLine {
		t.Errorf("summary\n got %q\nwant %q", line, wantLine)
	}
	brief := analysis.AttributionBrief(s, "GB", 1)
	if !strings.Contains(brief, "grew: HTTP/2 (net/http) +0.25 (42% of the growth), 0.35 in smaller changes") {
		t.Errorf("brief %q: the growth left out must be counted", brief)
	}
}

func checkShares(t *testing.T, hand string, got, want []results.AttributionShare) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %+v, want %+v", hand, got, want)
	}
	for i, w := range want {
		g := got[i]
		if g.Name != w.Name || g.Area != w.Area || !near(g.SecondsPerUnit, w.SecondsPerUnit) || !near(g.BaseSecondsPerUnit, w.BaseSecondsPerUnit) ||
			!near(g.ChangeSecondsPerUnit, w.ChangeSecondsPerUnit) || !near(g.Share, w.Share) {
			t.Errorf("%s %d: %+v, want %+v", hand, i, g, w)
		}
	}
}

// TestCompareAddsUp: whatever the profiles, growth less shrinkage is the
// net extra, over areas and over functions, and no share exceeds 1.
func TestCompareAddsUp(t *testing.T) {
	names := []string{"syscall.Syscall", "net/http.(*conn).serve", "net/http.(*http2Framer).WriteDataPadded", "runtime.mallocgc", "runtime.memmove", "crypto/tls.(*Conn).Write", "main.main"}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 50 {
		cm, bm := map[string]int64{}, map[string]int64{}
		for _, n := range names {
			cm[n], bm[n] = 10*rng.Int64N(50), 10*rng.Int64N(50)
		}
		s, err := attribution.Compare("client", attribution.Sample{Profile: cpuProfile(t, cm), Units: 1 + rng.Float64()}, attribution.Sample{Profile: cpuProfile(t, bm), Units: 1 + rng.Float64()})
		if err != nil {
			t.Fatal(err)
		}
		if d := s.GrowthSecondsPerUnit - s.ShrinkageSecondsPerUnit - s.ExtraSecondsPerUnit; math.Abs(d) > 1e-9 {
			t.Errorf("case %d: areas %g - %g != %g", i, s.GrowthSecondsPerUnit, s.ShrinkageSecondsPerUnit, s.ExtraSecondsPerUnit)
		}
		if d := s.FunctionGrowthSecondsPerUnit - s.FunctionShrinkageSecondsPerUnit - s.ExtraSecondsPerUnit; math.Abs(d) > 1e-9 {
			t.Errorf("case %d: functions %g - %g != %g", i, s.FunctionGrowthSecondsPerUnit, s.FunctionShrinkageSecondsPerUnit, s.ExtraSecondsPerUnit)
		}
		if s.FunctionGrowthSecondsPerUnit < s.GrowthSecondsPerUnit-1e-9 {
			t.Errorf("case %d: functions grew %g, less than areas %g", i, s.FunctionGrowthSecondsPerUnit, s.GrowthSecondsPerUnit)
		}
		for _, l := range [][]results.AttributionShare{s.Areas, s.ShrunkAreas, s.Functions, s.ShrunkFunctions} {
			var sum float64
			for _, x := range l {
				sum += x.Share
				if !near(x.ChangeSecondsPerUnit, x.SecondsPerUnit-x.BaseSecondsPerUnit) {
					t.Errorf("case %d: %+v: change is not the difference", i, x)
				}
			}
			if sum > 1+1e-9 {
				t.Errorf("case %d: shares sum to %g", i, sum)
			}
		}
	}
}

// TestCompareExcludesLabel leaves the samples carrying ExcludeLabel (the
// emulator's ferry) out of every figure and reports them apart.
func TestCompareExcludesLabel(t *testing.T) {
	base := cpuProfile(t, map[string]int64{"syscall.Syscall": 100})
	cell := labelled(t, cpuProfile(t, map[string]int64{"syscall.Syscall": 100, "netem.(*ferry).read": 400}), "netem.(*ferry).read", "httpvs-emulator")
	s, err := attribution.Compare("client", attribution.Sample{Profile: cell, Units: 1, ExcludeLabel: "httpvs-emulator"}, attribution.Sample{Profile: base, Units: 1, ExcludeLabel: "httpvs-emulator"})
	if err != nil {
		t.Fatal(err)
	}
	if !near(s.SecondsPerUnit, 0.1) || !near(s.ExtraSecondsPerUnit, 0) || !near(s.ExcludedSecondsPerUnit, 0.4) || len(s.Functions) != 0 {
		t.Errorf("%+v: want 0.1 s/unit on each side, 0.4 left out", s)
	}
	if got := analysis.AttributionSummary(s, "GB"); !strings.Contains(got, "link emulator's 0.400 vs 0.000 s/GB left out") {
		t.Errorf("summary %q", got)
	}
	// Without the label to exclude, the ferry is the extra.
	s, err = attribution.Compare("client", attribution.Sample{Profile: cell, Units: 1}, attribution.Sample{Profile: base, Units: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !near(s.ExtraSecondsPerUnit, 0.4) {
		t.Errorf("unfiltered extra %g, want 0.4", s.ExtraSecondsPerUnit)
	}
}

// labelled gives the samples of function fn in the profile b the label
// key (any value).
func labelled(t *testing.T, b []byte, fn, key string) []byte {
	t.Helper()
	p, err := profile.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range p.Sample {
		if s.Location[0].Line[0].Function.Name == fn {
			s.Label = map[string][]string{key: {"ferry"}}
		}
	}
	var out bytes.Buffer
	if err := p.Write(&out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestCompareNoExtra names nothing when the cell spent less per unit.
func TestCompareNoExtra(t *testing.T) {
	p := cpuProfile(t, map[string]int64{"runtime.memmove": 100})
	s, err := attribution.Compare("client", attribution.Sample{Profile: p, Units: 2}, attribution.Sample{Profile: p, Units: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s.ExtraSecondsPerUnit >= 0 || len(s.Functions) != 0 || len(s.Areas) != 0 || !near(s.ShrinkageSecondsPerUnit, -s.ExtraSecondsPerUnit) {
		t.Errorf("%+v: want a negative extra, all of it shrinkage, and nothing grown", s)
	}
	if got := analysis.AttributionSummary(s, "1000 requests"); !strings.Contains(got, "no more than the baseline's") {
		t.Errorf("summary %q", got)
	}
}

// TestCompareBadInput names the side and what was wrong.
func TestCompareBadInput(t *testing.T) {
	p := cpuProfile(t, map[string]int64{"runtime.memmove": 100})
	if _, err := attribution.Compare("server", attribution.Sample{Profile: []byte("not a profile"), Units: 1}, attribution.Sample{Profile: p, Units: 1}); err == nil || !strings.Contains(err.Error(), "server profile") {
		t.Errorf("garbage: %v", err)
	}
	if _, err := attribution.Compare("client", attribution.Sample{Profile: p, Units: 1}, attribution.Sample{Profile: p}); err == nil || !strings.Contains(err.Error(), "client baseline profile: no work") {
		t.Errorf("zero units: %v", err)
	}
}

// TestArea places functions of each stack in their area.
func TestArea(t *testing.T) {
	for fn, want := range map[string]string{
		"net/http.(*http2Framer).WriteDataPadded":                  attribution.AreaHTTP2,
		"net/http.http2parseDataFrame":                             attribution.AreaHTTP2,
		"net/http/internal/http2.(*Framer).ReadFrame":              attribution.AreaHTTP2,
		"golang.org/x/net/http2.(*Framer).ReadFrame":               attribution.AreaXHTTP2,
		"net/http.(*persistConn).readLoop":                         attribution.AreaHTTP1,
		"crypto/tls.(*Conn).Write":                                 attribution.AreaTLS,
		"crypto/internal/fips140/aes/gcm.gcmAesEnc":                attribution.AreaCrypto,
		"github.com/quic-go/quic-go.(*Conn).run":                   attribution.AreaQUIC,
		"google.golang.org/grpc/internal/transport.(*http2Server)": attribution.AreaGRPC,
		"runtime.memmove":                                          attribution.AreaMemory,
		"runtime.mallocgc":                                         attribution.AreaGC,
		"runtime.scanobject":                                       attribution.AreaGC,
		"runtime.netpoll":                                          attribution.AreaSyscall,
		"runtime.schedule":                                         attribution.AreaRuntime,
		"internal/runtime/syscall.Syscall6":                        attribution.AreaSyscall,
		"syscall.Syscall":                                          attribution.AreaSyscall,
		"internal/poll.(*FD).Read":                                 attribution.AreaSyscall,
		"main.main":                                                attribution.AreaOther,
	} {
		if got := attribution.Area(fn); got != want {
			t.Errorf("attribution.Area(%q) = %q, want %q", fn, got, want)
		}
	}
}
