package histogram

import (
	"testing"
	"time"
)

func TestHistogramMerge(t *testing.T) {
	a, b := New(), New()
	for i := 1; i <= 900; i++ {
		a.Record(time.Duration(i) * time.Millisecond / 10) // 0.1 ms .. 90 ms
	}
	for i := 0; i < 100; i++ {
		b.Record(time.Second)
	}
	b.Record(time.Hour)
	a.Merge(b)
	s := a.Summary()
	if s.Count != 1001 || a.Clamped != 1 {
		t.Fatalf("count %d clamped %d", s.Count, a.Clamped)
	}
	if s.P50 < 0.049 || s.P50 > 0.051 {
		t.Fatalf("p50 %v, want about 0.050", s.P50)
	}
	if s.P99 < 0.999 || s.P99 > 1.001 {
		t.Fatalf("p99 %v, want about 1.0", s.P99)
	}
	if s.Max < 599 || s.Max > 601 || s.Min < 0.0000999 || s.Min > 0.0001001 {
		t.Fatalf("min %v max %v", s.Min, s.Max)
	}
	if empty := New().Summary(); empty.Count != 0 || empty.Max != 0 {
		t.Fatalf("empty summary %+v", empty)
	}
}
