package attribution

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
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
// against 0.5 over twice the work) to the functions and areas that grew,
// each with its exact share, leaving out what shrank and what is under
// minShare.
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
		"crypto/aes.gcmAesEnc":                    10,  // +0.01: 1% of the extra, unnamed
	})
	s, err := Compare("server", Sample{Profile: cell, Units: 1}, Sample{Profile: base, Units: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !near(s.SecondsPerUnit, 1.0) || !near(s.BaseSecondsPerUnit, 0.5) || !near(s.ExtraSecondsPerUnit, 0.5) {
		t.Fatalf("per unit %g vs %g, extra %g: want 1.0 vs 0.5, 0.5", s.SecondsPerUnit, s.BaseSecondsPerUnit, s.ExtraSecondsPerUnit)
	}
	// What grew sums to 0.6 (0.25+0.2+0.14+0.01) against a net extra of
	// 0.5 (0.1 shrank): each part of the extra is in proportion to growth,
	// and the 1% is not named.
	want := []Share{
		{Name: "net/http.(*http2Framer).WriteDataPadded", Area: AreaHTTP2, GrowthSecondsPerUnit: 0.25, Share: 0.25 / 0.6, ExtraSecondsPerUnit: 0.5 * 0.25 / 0.6},
		{Name: "syscall.Syscall", Area: AreaSyscall, GrowthSecondsPerUnit: 0.2, Share: 0.2 / 0.6, ExtraSecondsPerUnit: 0.5 * 0.2 / 0.6},
		{Name: "runtime.mallocgc", Area: AreaGC, GrowthSecondsPerUnit: 0.14, Share: 0.14 / 0.6, ExtraSecondsPerUnit: 0.5 * 0.14 / 0.6},
	}
	if len(s.Functions) != len(want) {
		t.Fatalf("functions %+v, want %+v", s.Functions, want)
	}
	var total, extra float64
	for i, w := range want {
		g := s.Functions[i]
		if g.Name != w.Name || g.Area != w.Area || !near(g.GrowthSecondsPerUnit, w.GrowthSecondsPerUnit) || !near(g.Share, w.Share) || !near(g.ExtraSecondsPerUnit, w.ExtraSecondsPerUnit) {
			t.Errorf("function %d: %+v, want %+v", i, g, w)
		}
		total += g.Share
		extra += g.ExtraSecondsPerUnit
	}
	if total > 1 || extra > s.ExtraSecondsPerUnit {
		t.Errorf("function shares sum to %g, their extra to %g of %g", total, extra, s.ExtraSecondsPerUnit)
	}
	if len(s.Areas) != 3 || s.Areas[0].Name != AreaHTTP2 || s.Areas[1].Name != AreaSyscall || s.Areas[2].Name != AreaGC {
		t.Errorf("areas %+v: want HTTP/2, syscalls, GC", s.Areas)
	}
	line := s.Summary("GB")
	for _, w := range []string{"server +0.5 s/GB (1 vs 0.5)", "42% HTTP/2 (net/http)", "33% syscalls", "net/http.(*http2Framer).WriteDataPadded 42%"} {
		if !strings.Contains(line, w) {
			t.Errorf("summary %q lacks %q", line, w)
		}
	}
}

// TestCompareNoExtra names nothing when the cell spent less per unit.
func TestCompareNoExtra(t *testing.T) {
	p := cpuProfile(t, map[string]int64{"runtime.memmove": 100})
	s, err := Compare("client", Sample{Profile: p, Units: 2}, Sample{Profile: p, Units: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s.ExtraSecondsPerUnit >= 0 || len(s.Functions) != 0 || len(s.Areas) != 0 {
		t.Errorf("%+v: want a negative extra and nothing named", s)
	}
	if got := s.Summary("1000 requests"); !strings.Contains(got, "no more than the baseline's") {
		t.Errorf("summary %q", got)
	}
}

// TestCompareBadInput names the side and what was wrong.
func TestCompareBadInput(t *testing.T) {
	p := cpuProfile(t, map[string]int64{"runtime.memmove": 100})
	if _, err := Compare("server", Sample{Profile: []byte("not a profile"), Units: 1}, Sample{Profile: p, Units: 1}); err == nil || !strings.Contains(err.Error(), "server profile") {
		t.Errorf("garbage: %v", err)
	}
	if _, err := Compare("client", Sample{Profile: p, Units: 1}, Sample{Profile: p}); err == nil || !strings.Contains(err.Error(), "client baseline profile: no work") {
		t.Errorf("zero units: %v", err)
	}
}

// TestArea places functions of each stack in their area.
func TestArea(t *testing.T) {
	for fn, want := range map[string]string{
		"net/http.(*http2Framer).WriteDataPadded":                  AreaHTTP2,
		"net/http.http2parseDataFrame":                             AreaHTTP2,
		"net/http/internal/http2.(*Framer).ReadFrame":              AreaHTTP2,
		"golang.org/x/net/http2.(*Framer).ReadFrame":               AreaXHTTP2,
		"net/http.(*persistConn).readLoop":                         AreaHTTP1,
		"crypto/tls.(*Conn).Write":                                 AreaTLS,
		"crypto/internal/fips140/aes/gcm.gcmAesEnc":                AreaCrypto,
		"github.com/quic-go/quic-go.(*Conn).run":                   AreaQUIC,
		"google.golang.org/grpc/internal/transport.(*http2Server)": AreaGRPC,
		"runtime.memmove":                                          AreaMemory,
		"runtime.mallocgc":                                         AreaGC,
		"runtime.scanobject":                                       AreaGC,
		"runtime.netpoll":                                          AreaSyscall,
		"runtime.schedule":                                         AreaRuntime,
		"internal/runtime/syscall.Syscall6":                        AreaSyscall,
		"syscall.Syscall":                                          AreaSyscall,
		"internal/poll.(*FD).Read":                                 AreaSyscall,
		"main.main":                                                AreaOther,
	} {
		if got := Area(fn); got != want {
			t.Errorf("Area(%q) = %q, want %q", fn, got, want)
		}
	}
}
