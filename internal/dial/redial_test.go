package dial

import (
	"context"
	"testing"
	"time"
)

func TestWaitDoublesToMax(t *testing.T) {
	var d Redial
	want := []time.Duration{5, 10, 20, 40, 80, 160, 320, 640, 1000, 1000}
	for i, w := range want {
		if got := d.Failed(); got != w*time.Millisecond {
			t.Fatalf("failure %d: wait %v, want %v", i+1, got, w*time.Millisecond)
		}
	}
	d.Reset()
	if got := d.Failed(); got != RedialMin {
		t.Fatalf("after Reset: wait %v, want %v", got, RedialMin)
	}
	if RedialWait(0) != 0 || RedialWait(1<<20) != RedialMax {
		t.Fatalf("RedialWait(0) %v, RedialWait(1<<20) %v", RedialWait(0), RedialWait(1<<20))
	}
}

func TestTries(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want int
	}{
		{0, 1}, {4 * time.Millisecond, 1}, {5 * time.Millisecond, 2}, {15 * time.Millisecond, 3},
		{time.Second, 8},       // 5+10+...+320 = 635 ms; +640 = 1275 > 1 s
		{2 * time.Second, 9},   // 1275, 2275
		{10 * time.Second, 17}, // 1275 and 8 more seconds
	} {
		if got := RedialTries(c.d); got != c.want {
			t.Errorf("RedialTries(%v) = %d, want %d", c.d, got, c.want)
		}
	}
}

func TestSleepEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if RedialSleep(ctx, time.Hour) {
		t.Fatal("Sleep of an hour on an ended context said the hour passed")
	}
	if !RedialSleep(context.Background(), time.Millisecond) {
		t.Fatal("Sleep of 1ms said the context ended")
	}
}
