package analysis

import (
	"bytes"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/httpvs/httpvs/internal/attribution"
	"github.com/httpvs/httpvs/results"
)

// flatProfile is a CPU profile with ms milliseconds in each function named;
// those in ferry carry attribution.EmulatorLabel, as the link's goroutines do.
func flatProfile(t *testing.T, ms map[string]int64, ferry map[string]bool) []byte {
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
		s := &profile.Sample{Location: []*profile.Location{loc}, Value: []int64{v / 10, v * 1_000_000}}
		if ferry[name] {
			s.Label = map[string][]string{attribution.EmulatorLabel: {"ferry"}}
		}
		p.Sample = append(p.Sample, s)
	}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestAttributeProfilesVerdict attributes the cells the verdict calls
// slower (the paired interval below 1), not those whose medians merely
// differ, and keeps the emulator's ferry out of the client's profile.
func TestAttributeProfilesVerdict(t *testing.T) {
	rep := []results.Repetition{{Bytes: 1e9, Requests: 1, Profiled: true}}
	cell := func(proto string, medians float64, verdict string) results.Cell {
		c := results.Cell{Scenario: "download", Protocol: proto, CPUUnit: "GB", RatioToBaseline: medians, Repetitions: rep}
		if verdict != "" {
			c.VsBaseline = &results.Interval{Ratio: medians, Pairs: 5, Verdict: verdict}
		}
		return c
	}
	res := &results.Results{Cells: []results.Cell{
		cell("h1", 1, ""),
		cell("h2c", 1.0, results.VerdictSlower),     // medians equal, pairs slower: attributed
		cell("h2", 0.8, results.VerdictSimilar),     // medians apart, the verdict ≈: not
		cell("h1-tls", 0.8, results.VerdictUnknown), // no interval: not
	}}
	base := flatProfile(t, map[string]int64{"syscall.Syscall": 500, "netem.(*ferry).read": 300}, map[string]bool{"netem.(*ferry).read": true})
	slow := flatProfile(t, map[string]int64{"syscall.Syscall": 500, "net/http.(*http2Framer).WriteDataPadded": 200, "netem.(*ferry).read": 900}, map[string]bool{"netem.(*ferry).read": true})
	read := func(c *results.Cell, side string) ([]byte, error) {
		if c.Protocol == "h1" {
			return base, nil
		}
		return slow, nil
	}
	if errs := AttributeProfiles(res, read); len(errs) != 0 {
		t.Fatal(errs)
	}
	for _, c := range res.Cells {
		if (c.Attribution != nil) != (c.Protocol == "h2c") {
			t.Errorf("%s: attribution %v; want one for h2c only (the verdict's slower cell)", c.Protocol, c.Attribution)
		}
	}
	s := res.Cell("download", "h2c").Attribution[0]
	if s.Side != "client" || s.ExtraSecondsPerUnit < 0.199 || s.ExtraSecondsPerUnit > 0.201 || s.ExcludedSecondsPerUnit < 0.899 {
		t.Errorf("%+v: want +0.2 s/GB in HTTP/2, the ferry's 0.9 left out", s)
	}
}
