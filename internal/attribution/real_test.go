package attribution_test

import (
	"bytes"
	"math"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/attribution"

	"github.com/httpvs/httpvs/internal/analysis"
)

var sink uint64

// spin does n rounds of arithmetic: CPU time in proportion to n, however
// busy the machine (a wall-clock loop would not be).
//
//go:noinline
func spin(n int) {
	x := uint64(n)
	for i := 0; i < n; i++ {
		x = x*31 + uint64(i)
	}
	sink = x
}

// spinExtra is the cell's extra work.
//
//go:noinline
func spinExtra(n int) { spin2(n) }

//go:noinline
func spin2(n int) {
	x := uint64(n)
	for i := 0; i < n; i++ {
		x = x*37 + uint64(i)
	}
	sink = x
}

func profiled(t *testing.T, work func()) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := pprof.StartCPUProfile(&b); err != nil {
		t.Skipf("CPU profiling unavailable: %v", err)
	}
	work()
	pprof.StopCPUProfile()
	return b.Bytes()
}

// TestCompareRealProfiles reads runtime/pprof's own profiles: the cell
// did the baseline's work and as much again in spin2, which its extra
// names first.
func TestCompareRealProfiles(t *testing.T) {
	const n = 400_000_000 // about 0.3 s
	base := profiled(t, func() { spin(n) })
	cell := profiled(t, func() { spin(n); spinExtra(n) })
	s, err := attribution.Compare("client", attribution.Sample{Profile: cell, Units: 1}, attribution.Sample{Profile: base, Units: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(analysis.AttributionSummary(s, "GB"))
	// Spin loops are preempted by signal, so on a busy machine part of
	// their samples land in runtime.asyncPreempt: the first function
	// outside the runtime is the one to name.
	first := ""
	for _, f := range s.Functions {
		if !strings.HasPrefix(f.Name, "runtime.") {
			first = f.Name
			break
		}
	}
	if s.ExtraSecondsPerUnit <= 0 || !strings.HasSuffix(first, ".spin2") {
		t.Fatalf("%+v: want spin2 first outside the runtime", s)
	}
	var total float64
	for _, f := range s.Functions {
		total += f.Share
	}
	if total > 1+1e-9 {
		t.Errorf("shares sum to %g", total)
	}
	if d := s.GrowthSecondsPerUnit - s.ShrinkageSecondsPerUnit - s.ExtraSecondsPerUnit; math.Abs(d) > 1e-9 {
		t.Errorf("grew %g - shrank %g != extra %g", s.GrowthSecondsPerUnit, s.ShrinkageSecondsPerUnit, s.ExtraSecondsPerUnit)
	}
}
