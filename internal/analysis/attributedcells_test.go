package analysis

import (
	"encoding/json"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// AttributedCells keeps, in order, the cells with an attribution that the
// verdict calls slower: not one without an attribution, nor one with an
// attribution the verdict calls similar, nor the baseline (no verdict).
func TestAttributedCells(t *testing.T) {
	side := []*results.AttributionSide{{Side: "client", Samples: 40, BaseSamples: 30, ExtraSecondsPerUnit: 0.2}}
	slower, similar := &results.Interval{Verdict: results.VerdictSlower}, &results.Interval{Verdict: results.VerdictSimilar}
	res := &results.Results{Cells: []results.Cell{
		{Scenario: "download", Protocol: "h1", RatioToBaseline: 1, CPUUnit: "GB", Attribution: side},
		{Scenario: "download", Protocol: "h2c", RatioToBaseline: 0.8, CPUUnit: "GB", VsBaseline: slower, Attribution: side},
		{Scenario: "download", Protocol: "h2", RatioToBaseline: 0.7, CPUUnit: "GB", VsBaseline: slower},
		{Scenario: "download", Protocol: "h3", RatioToBaseline: 0.95, CPUUnit: "GB", VsBaseline: similar, Attribution: side},
		{Scenario: "small", Protocol: "h2c", RatioToBaseline: 0.5, CPUUnit: "1000 requests", VsBaseline: slower, Attribution: side},
	}}
	got := AttributedCells(res)
	if len(got) != 2 {
		t.Fatalf("%d cells: %+v; want download/h2c and small/h2c", len(got), got)
	}
	want := []AttributedCell{
		{Scenario: "download", Protocol: "h2c", RatioToBaseline: 0.8, CPUUnit: "GB", Attribution: side},
		{Scenario: "small", Protocol: "h2c", RatioToBaseline: 0.5, CPUUnit: "1000 requests", Attribution: side},
	}
	for i, w := range want {
		g := got[i]
		if g.Scenario != w.Scenario || g.Protocol != w.Protocol || g.RatioToBaseline != w.RatioToBaseline || g.CPUUnit != w.CPUUnit || len(g.Attribution) != 1 || g.Attribution[0] != side[0] {
			t.Errorf("cell %d: %+v, want %+v", i, g, w)
		}
	}
	b, err := json.Marshal(got[:1])
	if err != nil {
		t.Fatal(err)
	}
	sideJSON, _ := json.Marshal(side)
	if want := `[{"scenario":"download","protocol":"h2c","ratio_to_h1":0.8,"cpu_unit":"GB","attribution":` + string(sideJSON) + `}]`; string(b) != want {
		t.Errorf("JSON\n%s\nwant\n%s", b, want)
	}

	none := AttributedCells(&results.Results{Cells: res.Cells[:1]})
	if b, _ := json.Marshal(none); none == nil || string(b) != "[]" {
		t.Errorf("no attributed cell: %#v, JSON %s; want [], not null", none, b)
	}
}
