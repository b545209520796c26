package merge

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/histogram"
	"github.com/httpvs/httpvs/load/loadresult"
	"github.com/httpvs/httpvs/stats"
)

var t0 = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

// part builds a load result of n successful requests with latencies drawn
// from rng (also recorded into all), measured from start for seconds.
func part(t *testing.T, name string, rng *rand.Rand, n int, start time.Time, seconds float64, all *histogram.Histogram) Part {
	t.Helper()
	lat, conn, tls, ttfb := histogram.New(), histogram.New(), histogram.New(), histogram.New()
	for range n {
		d := time.Duration(rng.ExpFloat64() * float64(2*time.Millisecond))
		lat.Record(d)
		ttfb.Record(d / 2)
		if all != nil {
			all.Record(d)
		}
	}
	conn.Record(100 * time.Microsecond)
	h, err := histogram.EncodeLoad(lat, conn, tls, ttfb, nil)
	if err != nil {
		t.Fatal(err)
	}
	window := time.Duration(seconds * float64(time.Second))
	r := loadresult.Result{
		Kind: loadresult.Kind, SchemaVersion: loadresult.SchemaVersion, Engine: "fast", URL: "http://198.18.0.2:8080/small",
		Method: "GET", Requested: "h2c", Protocol: "h2c", Mode: "closed", Concurrency: 10, Asked: 10, Connections: 1,
		Requests: int64(n) + 2, Succeeded: int64(n), BytesReceived: 2 * int64(n), Seconds: seconds,
		Errors: stats.ErrorCounts{Total: 2, Reset: 2}, Latency: lat.Summary(), Host: name + "-host",
		Phases:  loadresult.Phases{Connect: conn.Summary(), TLS: tls.Summary(), TTFB: ttfb.Summary()},
		Started: start, Finished: start.Add(window), Histograms: h, ClientCPUSeconds: 1, BytesPerRequest: 100,
	}
	return Part{Name: name, Result: r}
}

// threeParts are three generators' results, 15,000 successes in all,
// their latencies also recorded into all.
func threeParts(t *testing.T, all *histogram.Histogram) []Part {
	rng := rand.New(rand.NewPCG(1, 2))
	return []Part{
		part(t, "a", rng, 5000, t0, 10, all),
		part(t, "b", rng, 3000, t0.Add(20*time.Millisecond), 10, all),
		part(t, "c", rng, 7000, t0.Add(5*time.Millisecond), 10, all),
	}
}

// The merged histogram is the one histogram fed every part's values:
// the same encoding, bucket for bucket, and so the same percentiles.
func TestMergeEqualsOneHistogramFedAll(t *testing.T) {
	all := histogram.New()
	parts := threeParts(t, all)
	m, err := Merge(parts)
	if err != nil {
		t.Fatal(err)
	}
	want, err := all.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if m.Result.Histograms.Latency != want {
		t.Fatal("merged latency histogram differs from one histogram fed every value")
	}
	if m.Result.Latency != all.Summary() {
		t.Fatalf("merged latency %+v, want %+v", m.Result.Latency, all.Summary())
	}
	checkMergedFigures(t, m)
	if len(m.Warnings) != 0 {
		t.Fatalf("warnings %v", m.Warnings)
	}
}

// checkMergedFigures checks the merged counts, the rates and window over
// the union of the parts' windows, the hosts, and the per-request figures
// of the three parts threeParts makes.
func checkMergedFigures(t *testing.T, m Merged) {
	t.Helper()
	r := m.Result
	if r.Succeeded != 15000 || r.Requests != 15006 || r.Errors.Total != 6 || r.Errors.Reset != 6 || r.Parts != 3 || r.Connections != 3 {
		t.Fatalf("counts: %+v", r)
	}
	// Rates are over the union of the windows: 10.02 s.
	if r.Seconds != 10.02 || r.RequestsPerSecond != 15000/10.02 {
		t.Fatalf("seconds %v, req/s %v", r.Seconds, r.RequestsPerSecond)
	}
	if !r.Started.Equal(t0) || !r.Finished.Equal(t0.Add(10020*time.Millisecond)) || m.StartSkew != 20*time.Millisecond {
		t.Fatalf("window %v..%v, skew %v", r.Started, r.Finished, m.StartSkew)
	}
	if r.Host != "" || strings.Join(r.Hosts, ",") != "a-host,b-host,c-host" {
		t.Fatalf("host %q, hosts %v", r.Host, r.Hosts)
	}
	if r.BytesPerRequest != 100 || r.ClientCPUSeconds != 3 || r.Concurrency != 30 {
		t.Fatalf("bytes/request %v, cpu %v, concurrency %d", r.BytesPerRequest, r.ClientCPUSeconds, r.Concurrency)
	}
}

// A merged result merges again: (a+b)+c equals a+b+c.
func TestMergeOfAMerge(t *testing.T) {
	all := histogram.New()
	parts := threeParts(t, all)
	want, err := all.Encode()
	if err != nil {
		t.Fatal(err)
	}
	ab, err := Merge(parts[:2])
	if err != nil {
		t.Fatal(err)
	}
	again, err := Merge([]Part{{Name: "ab", Result: ab.Result}, parts[2]})
	if err != nil {
		t.Fatal(err)
	}
	if again.Result.Histograms.Latency != want || again.Result.Parts != 3 || again.Result.Succeeded != 15000 {
		t.Fatalf("merging a merge: parts %d, succeeded %d", again.Result.Parts, again.Result.Succeeded)
	}
}

// Windows with a gap: the rates are over the windows only, and the gap is
// reported.
func TestMergeWindowsWithAGap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	a := part(t, "a", rng, 100, t0, 1, nil)
	b := part(t, "b", rng, 100, t0.Add(3*time.Second), 2, nil)
	m, err := Merge([]Part{b, a})
	if err != nil {
		t.Fatal(err)
	}
	if m.Result.Seconds != 3 || m.StartSkew != 3*time.Second {
		t.Fatalf("seconds %v (want 1+2), skew %v", m.Result.Seconds, m.StartSkew)
	}
	if len(m.Warnings) != 1 || m.Warnings[0].Kind != WarnNoOverlap || !strings.Contains(m.Warnings[0].Text, "b started 2s after") {
		t.Fatalf("warnings %v", m.Warnings)
	}
}

func TestMergeWarnsOfShares(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	a := part(t, "a", rng, 100, t0, 1, nil)
	a.Result.Share = "0/3"
	b := part(t, "b", rng, 100, t0, 1, nil)
	b.Result.Share = "0/3"
	c := part(t, "c", rng, 100, t0, 1, nil)
	c.Result.Share = "2/3"
	m, err := Merge([]Part{a, b, c})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, w := range m.Warnings {
		texts = append(texts, w.Text)
	}
	got := strings.Join(texts, "\n")
	for _, want := range []string{"a and b both ran share 0/3", "shares 1/3 missing: the merge is 2 of 3"} {
		if !strings.Contains(got, want) {
			t.Errorf("warnings lack %q:\n%s", want, got)
		}
	}
}

// One run given twice (one file named twice, or a copy of it) is refused:
// its counts would be doubled. Runs that differ in any of host, window or
// counts are not one run.
func TestMergeRefusesOneRunGivenTwice(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	a := part(t, "a", rng, 100, t0, 1, nil)
	c := part(t, "c", rng, 100, t0.Add(time.Millisecond), 1, nil)
	for _, tc := range []struct {
		name  string
		parts []Part
		want  string
	}{
		{"one file twice", []Part{a, c, a}, "a is given twice: merging a run with itself would double its counts"},
		{"a copy", []Part{a, c, {Name: "b", Result: a.Result}}, "a and b are the same run (same host, measured window and counts)"},
	} {
		_, err := Merge(tc.parts)
		var de *DuplicateError
		if !errors.As(err, &de) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: err %v; want a *DuplicateError %q", tc.name, err, tc.want)
		}
	}
	for _, tc := range []struct {
		name string
		edit func(r *loadresult.Result)
	}{
		{"host", func(r *loadresult.Result) { r.Host = "other" }},
		{"start", func(r *loadresult.Result) { r.Started = r.Started.Add(time.Nanosecond) }},
		{"end", func(r *loadresult.Result) { r.Finished = r.Finished.Add(time.Nanosecond) }},
	} {
		b := Part{Name: "b", Result: a.Result}
		tc.edit(&b.Result)
		m, err := Merge([]Part{a, b})
		if err != nil || m.Result.Requests != 2*a.Result.Requests {
			t.Errorf("another %s: err %v, requests %d; want the two runs summed, %d", tc.name, err, m.Result.Requests, 2*a.Result.Requests)
		}
	}
}

func TestMergeRefusesDifferentMeasurements(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct {
		field string
		edit  func(r *loadresult.Result)
	}{
		{"url", func(r *loadresult.Result) { r.URL = "http://198.18.0.2:8080/bytes/1M" }},
		{"requested", func(r *loadresult.Result) { r.Requested = "h1" }},
		{"mode", func(r *loadresult.Result) {
			r.Mode, r.Schedule, r.Histograms.LateBy = "open", &loadresult.Schedule{}, r.Histograms.Latency
		}},
		{"headers", func(r *loadresult.Result) { r.Headers = "100:100" }},
		{"header_names", func(r *loadresult.Result) { r.HeaderNames = []string{"Authorization"} }},
		{"settings.read_size", func(r *loadresult.Result) { r.Settings.ReadSize = 4096 }},
	} {
		a := part(t, "a", rng, 10, t0, 1, nil)
		b := part(t, "b", rng, 10, t0, 1, nil)
		c.edit(&b.Result)
		_, err := Merge([]Part{a, b})
		var me *MismatchError
		if !errors.As(err, &me) || me.Field != c.field || me.A != "a" || me.B != "b" {
			t.Errorf("%s: err %v", c.field, err)
		}
	}
}

func TestMergeRefusesWhatIsNotALoadResult(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, c := range []struct {
		name string
		edit func(r *loadresult.Result)
		want error
	}{
		{"kind", func(r *loadresult.Result) { r.Kind = "run" }, ErrNotLoad},
		{"version", func(r *loadresult.Result) { r.SchemaVersion = 2 }, ErrSchema},
		{"no histograms", func(r *loadresult.Result) { r.Histograms = nil }, ErrNoHistograms},
		{"no window", func(r *loadresult.Result) { r.Started = time.Time{} }, ErrNoWindow},
		{"edited count", func(r *loadresult.Result) { r.Succeeded++ }, nil},
		{"foreign histogram", func(r *loadresult.Result) { r.Histograms.Latency = "HISTFAAAAB" }, nil},
	} {
		p := part(t, "p", rng, 10, t0, 1, nil)
		c.edit(&p.Result)
		_, err := Merge([]Part{p})
		var pe *PartError
		if !errors.As(err, &pe) || pe.Name != "p" || (c.want != nil && !errors.Is(err, c.want)) {
			t.Errorf("%s: err %v", c.name, err)
		}
	}
	if _, err := Merge(nil); !errors.Is(err, ErrNoInput) {
		t.Errorf("no parts: %v", err)
	}
}

// A merged result keeps every part's share and run: merged again with one
// of its parts it is refused, however the part arrives, and merged with
// the missing share it makes the whole load, without a warning.
func TestMergeKeepsSharesOfAMerge(t *testing.T) {
	parts := threeParts(t, nil)
	for i := range parts {
		parts[i].Result.Share = fmt.Sprintf("%d/3", i)
	}
	ab, err := Merge(parts[:2])
	if err != nil {
		t.Fatal(err)
	}
	merged := Part{Name: "ab.json", Result: ab.Result}
	if n := len(ab.Result.Runs); n != 2 || ab.Result.Runs[1].Share != "1/3" {
		t.Fatalf("the merge names %d runs (%+v), want the 2 with their shares", n, ab.Result.Runs)
	}
	for _, again := range [][]Part{{merged, parts[1]}, {parts[0], merged}, {merged, merged}} {
		_, err := Merge(again)
		var de *DuplicateError
		if !errors.As(err, &de) {
			t.Fatalf("merging %s with %s: %v, want a *DuplicateError", again[0].Name, again[1].Name, err)
		}
	}
	whole, err := Merge([]Part{merged, parts[2]})
	if err != nil {
		t.Fatal(err)
	}
	if whole.Result.Parts != 3 || whole.Result.Succeeded != 15000 || len(whole.Warnings) != 0 {
		t.Fatalf("the merge with the third share: parts %d, succeeded %d, warnings %v", whole.Result.Parts, whole.Result.Succeeded, whole.Warnings)
	}
	// Without the merge's runs, as an older merge wrote it, its shares
	// are unknown: the third share alone is "missing" the first two.
	old := merged
	old.Result.Runs = nil
	if m, err := Merge([]Part{old, parts[2]}); err != nil || len(m.Warnings) == 0 {
		t.Fatalf("a merge without its runs: %v, warnings %v", err, m.Warnings)
	}
}
