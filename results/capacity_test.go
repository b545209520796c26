package results

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseObjective(t *testing.T) {
	for s, want := range map[string]Objective{
		"p99<50ms":            {Quantile: 0.99, MaxLatency: 0.05, Text: "p99<50ms"},
		" p50 < 2ms ":         {Quantile: 0.5, MaxLatency: 0.002, Text: "p50 < 2ms"},
		"p999<1s,errors<0.5%": {Quantile: 0.999, MaxLatency: 1, MaxErrorRate: 0.005, Text: "p999<1s,errors<0.5%"},
		"errors<1%":           {MaxErrorRate: 0.01, Text: "errors<1%"},
	} {
		got, err := ParseObjective(s)
		if err != nil || got != want {
			t.Errorf("ParseObjective(%q) = %+v, %v; want %+v", s, got, err, want)
		}
	}
	for s, why := range map[string]string{
		"":                  "want e.g.",
		"p99":               "NAME<BOUND",
		"p98<5ms":           "want p50",
		"p99<fast":          "positive duration",
		"p99<0s":            "positive duration",
		"p99<5ms,p50<1ms":   "one latency bound",
		"errors<1":          "PERCENT%",
		"errors<100%":       "under 100",
		"errors<0%":         "latency bound",
		"p99<5ms,errors<x%": "PERCENT%",
	} {
		if _, err := ParseObjective(s); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("ParseObjective(%q): %v, want %q", s, err, why)
		}
	}
}

func FuzzParseObjective(f *testing.F) {
	for _, s := range []string{"p99<50ms", "errors<1%", "p50<1s,errors<0.1%", "p9<", "<,<"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseObjective(s)
		if err != nil {
			return
		}
		if o.MaxLatency < 0 || o.MaxErrorRate < 0 || o.MaxErrorRate >= 1 || (o.Quantile == 0 && o.MaxErrorRate == 0) {
			t.Fatalf("ParseObjective(%q) = %+v", s, o)
		}
	})
}

// TestRatioOf: the ratio of what each met, bounded by their brackets; a
// verdict only where the bounds exclude 1.
func TestRatioOf(t *testing.T) {
	base := CapacityResult{Met: 1000, Missed: 1100}
	for _, tc := range []struct {
		c                CapacityResult
		ratio, low, high float64
		verdict          string
	}{
		{CapacityResult{Met: 2000, Missed: 2100}, 2, 2000.0 / 1100, 2.1, VerdictFaster},
		{CapacityResult{Met: 500, Missed: 550}, 0.5, 500.0 / 1100, 0.55, VerdictSlower},
		{CapacityResult{Met: 1050, Missed: 1150}, 1.05, 1050.0 / 1100, 1.15, VerdictSimilar},
		{CapacityResult{Met: 3000}, 3, 3000.0 / 1100, 0, VerdictFaster},
	} {
		r := RatioOf(tc.c, base)
		if r == nil || r.Ratio != tc.ratio || r.Low != tc.low || r.High != tc.high || r.Verdict != tc.verdict {
			t.Errorf("%+v: %+v", tc.c, r)
		}
	}
	if RatioOf(CapacityResult{Missed: 100}, base) != nil {
		t.Error("a ratio for a transport that met nothing")
	}
}

// TestCapacityFileJSON: capacity.json holds the search under "capacity"
// and what was not run under "not_run", indented two spaces; a search
// that left nothing out has no "not_run".
func TestCapacityFileJSON(t *testing.T) {
	c := &Capacity{Objective: Objective{Quantile: 0.99, MaxLatency: 0.05, Text: "p99<50ms"}, Request: "GET /small",
		Transports: []CapacityResult{{Protocol: "h1", Met: 4000, Steps: []CapacityStep{}}}, Baseline: "h1"}
	var b strings.Builder
	if err := (CapacityFile{Capacity: c, NotRun: []NotRun{{Protocol: "h3", Reason: "no UDP"}}}).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	want := `{
  "capacity": {
    "objective": {
      "quantile": 0.99,
      "max_latency_seconds": 0.05,
      "max_error_rate": 0,
      "text": "p99\u003c50ms"
    },
    "request": "GET /small",
    "transports": [
      {
        "protocol": "h1",
        "met_rps": 4000,
        "steps": []
      }
    ],
    "baseline": "h1"
  },
  "not_run": [
    {
      "protocol": "h3",
      "reason": "no UDP"
    }
  ]
}
`
	if b.String() != want {
		t.Errorf("capacity.json:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := (CapacityFile{Capacity: c}).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var back map[string]json.RawMessage
	if err := json.Unmarshal([]byte(b.String()), &back); err != nil || len(back) != 1 || back["capacity"] == nil {
		t.Errorf("nothing left out: %v, keys of %s: want capacity alone", err, b.String())
	}
}
