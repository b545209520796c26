package netem

import (
	"testing"
	"time"
)

// TestDirStatsAdd: two phases' counters add up to what one phase counting
// both would show; the latest packet and the largest are the larger ones.
func TestDirStatsAdd(t *testing.T) {
	a := DirStats{Packets: 10, Bytes: 15000, Lost: 1, QueueDrops: 2, Overflow: 3, Delivered: 4, Late: 5, MaxLate: 2 * time.Millisecond, Largest: 1500}
	b := DirStats{Packets: 1, Bytes: 60, Lost: 1, QueueDrops: 1, Overflow: 1, Delivered: 1, Late: 1, MaxLate: 3 * time.Millisecond, Largest: 60}
	want := DirStats{Packets: 11, Bytes: 15060, Lost: 2, QueueDrops: 3, Overflow: 4, Delivered: 5, Late: 6, MaxLate: 3 * time.Millisecond, Largest: 1500}
	if got := a.Add(b); got != want {
		t.Errorf("a.Add(b) = %+v, want %+v", got, want)
	}
	if got := b.Add(a); got != want {
		t.Errorf("b.Add(a) = %+v, want %+v", got, want)
	}
	if got := (DirStats{}).Add(a); got != a {
		t.Errorf("zero.Add(a) = %+v, want %+v", got, a)
	}
}
