package analysis

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

func TestParseObjective(t *testing.T) {
	for s, want := range map[string]results.Objective{
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

// TestRatioOf: one search gives the ratio of what each met and the
// resolution its brackets allow, and no verdict (no spread); repeated
// searches give an interval, the wider of their spread and the
// resolution, judged by the matrix verdict's rule: undetermined when it
// holds 1 and is wide or open; searches cut by the budget are left out
// while complete ones exist; no ratio when neither bracket closed.
func TestRatioOf(t *testing.T) {
	one := func(met, missed float64) results.CapacityResult {
		return results.CapacityResult{Met: met, Missed: missed}
	}
	base := one(1000, 1100)
	r := RatioOf(one(2000, 2100), base)
	if r == nil || r.Ratio != 2 || r.ResolutionLow != 2000.0/1100 || r.ResolutionHigh != 2.1 || r.Searches != 1 || r.Verdict != results.VerdictUnknown || r.Low != 0 || r.High != 0 {
		t.Errorf("one search: %+v", r)
	}
	if r := RatioOf(one(3000, 0), base); r == nil || r.ResolutionHigh != 0 || r.Verdict != results.VerdictUnknown {
		t.Errorf("one search, open above: %+v", r)
	}
	if r := RatioOf(one(800, 0), one(800, 0)); r != nil {
		t.Errorf("neither bracket closed (both carried every rate tried): %+v", r)
	}
	if RatioOf(results.CapacityResult{Missed: 100}, base) != nil {
		t.Error("a ratio for a transport that met nothing")
	}
}

func bracket(met, missed float64) results.CapacityBracket {
	return results.CapacityBracket{Met: met, Missed: missed}
}

func many(b ...results.CapacityBracket) results.CapacityResult {
	return results.CapacityResult{Met: b[0].Met, Missed: b[0].Missed, Searches: b}
}

// TestRatioOfSearches: repeated searches' ratio judged by the verdict's
// rule on the wider of their spread and their resolution; a cut search
// left out where complete ones pair.
func TestRatioOfSearches(t *testing.T) {
	b := bracket
	base3 := many(b(1000, 1050), b(1000, 1050), b(1000, 1050))
	for _, tc := range []struct {
		name    string
		c       results.CapacityResult
		verdict string
	}{
		{"twice the capacity every time", many(b(2000, 2100), b(2000, 2100), b(2050, 2100)), results.VerdictFaster},
		{"half", many(b(500, 525), b(500, 525), b(510, 535)), results.VerdictSlower},
		{"the same within the resolution", many(b(1000, 1050), b(1000, 1050), b(1000, 1050)), results.VerdictSimilar},
		{"a spread that reaches 25%", many(b(700, 735), b(1000, 1050), b(1400, 1470)), results.VerdictUndetermined},
		{"open above and holding 1", many(b(1000, 0), b(1000, 0), b(1000, 0)), results.VerdictUndetermined},
	} {
		r := RatioOf(tc.c, base3)
		if r == nil || r.Searches != 3 || r.Verdict != tc.verdict || r.Low > r.ResolutionLow || (r.High != 0 && r.High < r.ResolutionHigh) {
			t.Errorf("%s: %+v, want %s", tc.name, r, tc.verdict)
		}
	}
	cut := many(results.CapacityBracket{Met: 400, Cut: true}, b(2000, 2100))
	if r := RatioOf(cut, many(b(1000, 1050), b(1000, 1050))); r == nil || r.Searches != 1 || r.Ratio != 2 {
		t.Errorf("a cut search paired: %+v", r)
	}
}

// TestCapacityFileJSON: capacity.json holds the search under "capacity"
// and what was not run under "not_run", indented two spaces; a search
// that left nothing out has no "not_run".
func TestCapacityFileJSON(t *testing.T) {
	c := &results.Capacity{Objective: results.Objective{Quantile: 0.99, MaxLatency: 0.05, Text: "p99<50ms"}, Request: "GET /small",
		Transports: []results.CapacityResult{{Protocol: "h1", Met: 4000, Steps: []results.CapacityStep{}}}, Baseline: "h1", InFlight: 64}
	var b strings.Builder
	if err := (results.CapacityFile{Capacity: c, NotRun: []results.NotRun{{Protocol: "h3", Reason: "no UDP"}}}).WriteJSON(&b); err != nil {
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
    "baseline": "h1",
    "in_flight": 64
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
	if err := (results.CapacityFile{Capacity: c}).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var back map[string]json.RawMessage
	if err := json.Unmarshal([]byte(b.String()), &back); err != nil || len(back) != 1 || back["capacity"] == nil {
		t.Errorf("nothing left out: %v, keys of %s: want capacity alone", err, b.String())
	}
}
