package merge

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// gapRecord merges b and a, whose windows leave a gap, and returns the
// merge and its Record.
func gapRecord(t *testing.T) (Merged, Record) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	a := part(t, "a", rng, 100, t0, 1, nil)
	b := part(t, "b", rng, 50, t0.Add(3*time.Second), 2, nil)
	parts := []Part{b, a}
	m, err := Merge(parts)
	if err != nil {
		t.Fatal(err)
	}
	return m, NewRecord(parts, m)
}

// A Record lists the parts in the order given, with their own figures,
// the start skew in seconds and the warnings' texts.
func TestNewRecord(t *testing.T) {
	m, rec := gapRecord(t)
	want := []Input{
		{Name: "b", Host: "b-host", Started: t0.Add(3 * time.Second), Finished: t0.Add(5 * time.Second), Requests: 52, Succeeded: 50},
		{Name: "a", Host: "a-host", Started: t0, Finished: t0.Add(time.Second), Requests: 102, Succeeded: 100},
	}
	if len(rec.Merge.Inputs) != len(want) {
		t.Fatalf("inputs %+v", rec.Merge.Inputs)
	}
	for i, w := range want {
		if got := rec.Merge.Inputs[i]; got != w {
			t.Errorf("input %d: %+v, want %+v", i, got, w)
		}
	}
	if rec.Merge.StartSkewSeconds != 3 || rec.Result.Requests != 154 || rec.Result.Succeeded != 150 || rec.Result.Parts != 2 {
		t.Errorf("skew %v s, requests %d, succeeded %d, parts %d: want 3, 154, 150, 2",
			rec.Merge.StartSkewSeconds, rec.Result.Requests, rec.Result.Succeeded, rec.Result.Parts)
	}
	if len(rec.Merge.Warnings) != 1 || rec.Merge.Warnings[0] != m.Warnings[0].Text || !strings.Contains(rec.Merge.Warnings[0], "b started 2s after") {
		t.Errorf("warnings %q, want the merge's one text", rec.Merge.Warnings)
	}
}

// A Record encodes the merged result with "merge" last, and Read reads
// it back as one part.
func TestNewRecordJSON(t *testing.T) {
	m, rec := gapRecord(t)

	raw, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	tail := `,"merge":{"inputs":[{"name":"b","host":"b-host","started":"2026-11-23T10:00:03Z","finished":"2026-11-23T10:00:05Z","requests":52,"succeeded":50},` +
		`{"name":"a","host":"a-host","started":"2026-11-23T10:00:00Z","finished":"2026-11-23T10:00:01Z","requests":102,"succeeded":100}],"start_skew_seconds":3,"warnings":["`
	if !strings.HasPrefix(s, `{"`) || !strings.Contains(s, tail) || !strings.HasSuffix(s, `"]}}`) {
		t.Errorf("JSON:\n%s", s)
	}
	back, err := Read("merged", strings.NewReader(s))
	if err != nil || len(back) != 1 || back[0].Result.Requests != 154 || back[0].Result.Parts != 2 || back[0].Result.Histograms.Latency != m.Result.Histograms.Latency {
		t.Fatalf("read back: %v %+v", err, back)
	}
}

// A merge without warnings records them as [], not null.
func TestNewRecordNoWarnings(t *testing.T) {
	all := threeParts(t, nil)
	m, err := Merge(all)
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecord(all, m)
	if rec.Merge.Warnings == nil || len(rec.Merge.Warnings) != 0 || len(rec.Merge.Inputs) != 3 || rec.Merge.StartSkewSeconds != 0.02 {
		t.Fatalf("record %+v", rec.Merge)
	}
	raw, _ := json.Marshal(rec)
	if !strings.HasSuffix(string(raw), `"start_skew_seconds":0.02,"warnings":[]}}`) {
		t.Errorf("JSON ends %s", raw[len(raw)-60:])
	}
}
