package main

import (
	"errors"
	"math"
	"testing"

	"github.com/httpvs/httpvs/results"
)

func TestRatioRule(t *testing.T) {
	iv := results.Interval{Ratio: 0.3, Low: 0.25, High: 0.36, Pairs: 6}
	for _, tc := range []struct {
		name string
		pub  float64
		nf   float64
		want string
	}{
		{"inside", 0.3, 0, agrees},
		{"outside", 0.18, 0, disagrees},
		{"inside once widened by the noise floor", 0.2, 0.3, agrees},
		{"above once widened", 0.5, 0.3, disagrees},
		{"widened past a factor of 3", 0.3, 1, notComparable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, fig := ratioRule(tc.pub, iv, tc.nf); got != tc.want {
				t.Errorf("ratioRule(%v, %+v, %v) = %s (%s), want %s", tc.pub, iv, tc.nf, got, fig, tc.want)
			}
		})
	}
	if got, _ := ratioRule(0.3, results.Interval{Ratio: 0.3, Pairs: 1}, 0); got != notComparable {
		t.Errorf("one round: %s, want %s", got, notComparable)
	}
}

func TestDirectionRule(t *testing.T) {
	above := results.Interval{Ratio: 1.5, Low: 1.2, High: 1.8, Pairs: 4}
	below := results.Interval{Ratio: 0.5, Low: 0.4, High: 0.6, Pairs: 4}
	holds := results.Interval{Ratio: 1, Low: 0.8, High: 1.2, Pairs: 4}
	for _, tc := range []struct {
		faster bool
		iv     results.Interval
		want   string
	}{
		{true, above, agrees}, {true, below, disagrees}, {false, below, agrees}, {false, above, disagrees}, {true, holds, notComparable},
	} {
		if got := directionRule(tc.faster, tc.iv); got != tc.want {
			t.Errorf("directionRule(%v, %+v) = %s, want %s", tc.faster, tc.iv, got, tc.want)
		}
	}
}

func TestCountRule(t *testing.T) {
	for _, tc := range []struct {
		pub, got float64
		want     string
	}{
		{2.26, 1.62, agrees}, {2.26, 5.98, disagrees}, {1.5, 1, agrees}, {1.5, 0.99, disagrees}, {2, 0, notComparable},
	} {
		if g := countRule(tc.pub, tc.got); g != tc.want {
			t.Errorf("countRule(%v, %v) = %s, want %s", tc.pub, tc.got, g, tc.want)
		}
	}
}

func TestMeasureRoundsPairsColumns(t *testing.T) {
	calls := map[string]int{}
	rs, err := measureRounds(3, []string{"a", "b"}, true, func(col string) (float64, error) {
		calls[col]++
		return map[string]float64{"a": 2, "b": 1}[col], nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls["a"] != 4 || calls["b"] != 4 {
		t.Errorf("calls %v: want 4 each (a warm-up round and 3)", calls)
	}
	if len(rs["a"]) != 3 || len(rs["b"]) != 3 {
		t.Errorf("kept %d and %d rounds, want 3 each", len(rs["a"]), len(rs["b"]))
	}
	if iv := rs.ratio("a", "b", false); math.Abs(iv.Ratio-2) > 1e-9 || iv.Pairs != 3 {
		t.Errorf("a over b: %+v, want 2 over 3 pairs", iv)
	}
	if iv := rs.ratio("a", "b", true); math.Abs(iv.Ratio-0.5) > 1e-9 {
		t.Errorf("a over b, lower better: %+v, want 0.5", iv)
	}
	if m := rs.median("a"); m != 2 {
		t.Errorf("median %v, want 2", m)
	}
	boom := errors.New("boom")
	if _, err := measureRounds(1, []string{"a"}, false, func(string) (float64, error) { return 0, boom }); !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
}
