package main

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestRatioRule: R1's word follows the plain 95% interval; the
// noise-widened interval only fills its own column.
func TestRatioRule(t *testing.T) {
	iv := results.Interval{Ratio: 0.3, Low: 0.25, High: 0.36, Pairs: 6}
	for _, tc := range []struct {
		name      string
		pub, nf   float64
		want      string
		noiseWant string
	}{
		{"inside", 0.3, 0, agrees, ""},
		{"outside", 0.18, 0, disagrees, ""},
		{"inside only once widened: still disagrees, noise says yes", 0.2, 0.3, disagrees, "yes"},
		{"outside even widened", 0.5, 0.3, disagrees, "no"},
		{"inside, and inside widened", 0.3, 0.3, agrees, "yes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, fig, noise := ratioRule(tc.pub, iv, tc.nf)
			if got != tc.want || !strings.HasPrefix(noise, tc.noiseWant) || (tc.noiseWant == "" && noise != "") {
				t.Errorf("ratioRule(%v, %+v, %v) = %s (%s; noise %q), want %s, noise %q", tc.pub, iv, tc.nf, got, fig, noise, tc.want, tc.noiseWant)
			}
		})
	}
	wide := results.Interval{Ratio: 1, Low: 0.5, High: 1.6, Pairs: 4}
	if got, _, _ := ratioRule(1, wide, 0); got != notComparable {
		t.Errorf("an interval spanning 3.2x: %s, want %s", got, notComparable)
	}
	if got, _, _ := ratioRule(0.3, results.Interval{Ratio: 0.3, Pairs: 1}, 0); got != notComparable {
		t.Errorf("one round: %s, want %s", got, notComparable)
	}
}

// TestTakeApart: a setting whose interval holds the published figure is
// the cause; none, and the row is open with what was varied.
func TestTakeApart(t *testing.T) {
	base := results.Interval{Ratio: 0.33, Low: 0.3, High: 0.36, Pairs: 6}
	near := variation{"A", results.Interval{Ratio: 0.2, Low: 0.17, High: 0.23, Pairs: 4}}
	same := variation{"B", results.Interval{Ratio: 0.34, Low: 0.31, High: 0.37, Pairs: 4}}
	if got := takeApart(0.18, base, []variation{same, near}); !strings.HasSuffix(got, "cause: A (the interval holds the published 0.18x when set so)") || !strings.Contains(got, "B: 0.34x [0.31, 0.37] (4 rounds), not moved") {
		t.Errorf("got %q", got)
	}
	if got := takeApart(0.18, base, []variation{same}); !strings.HasSuffix(got, "open: varied B; none moved it to the published 0.18x") {
		t.Errorf("got %q", got)
	}
	wide := variation{"W", results.Interval{Ratio: 0.2, Low: 0.05, High: 0.29, Pairs: 4}}
	if got := takeApart(0.18, base, []variation{wide}); !strings.Contains(got, "open:") || !strings.Contains(got, "undecided") {
		t.Errorf("a variation wider than 3x is a cause: %q", got)
	}
	touching := variation{"T", results.Interval{Ratio: 0.25, Low: 0.16, High: 0.31, Pairs: 4}}
	if got := takeApart(0.18, base, []variation{touching}); !strings.Contains(got, "open:") {
		t.Errorf("a variation overlapping the row's interval is a cause: %q", got)
	}
	if got := takeApart(0.18, base, nil); strings.Contains(got, "no cause measured") || !strings.HasPrefix(got, "open:") {
		t.Errorf("got %q", got)
	}
}

// TestRulesVersion: the record's rules line names the version and a
// hash that stays put between calls.
func TestRulesVersion(t *testing.T) {
	v := rulesVersion()
	if !strings.HasPrefix(v, rulesName+", sha256:") || len(v) != len(rulesName)+len(", sha256:")+12 || v != rulesVersion() {
		t.Errorf("rulesVersion() = %q", v)
	}
}

// TestRulesHistory: a record with a rules line is listed under it; one
// from before versioning under its commit's rules; quick records not.
func TestRulesHistory(t *testing.T) {
	dir := t.TempDir()
	write := func(name, head string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(head), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("replay-2026-01-01T0000Z.md", "# x\n\n- commit: abc1234\n")
	write("replay-2026-01-02T0000Z.md", "# x\n\n- commit: def5678\n- rules: v9, sha256:000000000000\n")
	write("replay-2026-01-03T0000Z-quick.md", "- commit: zzz\n")
	h := rulesHistory(dir)
	for _, want := range []string{"replay-2026-01-01T0000Z.md: before rules were versioned: the rules of commit abc1234", "replay-2026-01-02T0000Z.md: v9, sha256:000000000000"} {
		if !strings.Contains(h, want) {
			t.Errorf("history lacks %q:\n%s", want, h)
		}
	}
	if strings.Contains(h, "quick") {
		t.Errorf("history lists a quick record:\n%s", h)
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

// TestCauseRow: R4 agrees only when the cheaper receiver raises h3 and
// the costlier sender does not lower it.
func TestCauseRow(t *testing.T) {
	up := results.Interval{Ratio: 1.3, Low: 1.2, High: 1.4, Pairs: 4}
	flat := results.Interval{Ratio: 1, Low: 0.9, High: 1.1, Pairs: 4}
	down := results.Interval{Ratio: 0.7, Low: 0.6, High: 0.8, Pairs: 4}
	for _, tc := range []struct {
		name             string
		receiver, sender results.Interval
		want             string
	}{
		{"receiver moves, sender not", up, flat, agrees},
		{"both move", up, down, notTested},
		{"receiver within ±10%", results.Interval{Ratio: 1, Low: 0.95, High: 1.05, Pairs: 4}, flat, disagrees},
		{"receiver too wide to tell", flat, flat, notTested},
		{"no interval", results.Interval{}, flat, notTested},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r := causeRow(causeTest{receiver: tc.receiver, sender: tc.sender, gap: flat}, "setup"); r.Verdict != tc.want || r.Rule != "R4" {
				t.Errorf("verdict %s (%s), want %s", r.Verdict, r.Note, tc.want)
			}
		})
	}
}

// TestCrossRef: a disagreeing row that varied nothing points at the row
// of the same published figure that was taken apart.
func TestCrossRef(t *testing.T) {
	rows := []Row{
		{Source: "s", Verdict: disagrees, published: 0.5},
		{Source: "s", Verdict: agrees, published: 0.7},
		{Source: "s", Verdict: disagrees, published: 0.5, Note: "varied ...; open: varied A; none moved it"},
	}
	crossRef(rows)
	if !strings.Contains(rows[0].Note, "row 3") || rows[1].Note != "" {
		t.Errorf("notes %q, %q", rows[0].Note, rows[1].Note)
	}
}

// TestCrossRefAgreeing: with no row taken apart, a disagreeing row
// points at the row where the same figure agrees; with neither, it is
// left for the document's "no setting was varied".
func TestCrossRefAgreeing(t *testing.T) {
	rows := []Row{
		{Source: "s", Verdict: disagrees, published: 0.5},
		{Source: "s", Verdict: notComparable, published: 0.5},
		{Source: "s", Verdict: agrees, published: 0.5, Claim: "the program itself"},
		{Source: "t", Verdict: disagrees, published: 0.9},
	}
	crossRef(rows)
	if !strings.Contains(rows[0].Note, "agrees in row 3 (the program itself)") || !strings.HasPrefix(rows[0].Note, "open:") || rows[3].Note != "" {
		t.Errorf("notes %q, %q", rows[0].Note, rows[3].Note)
	}
}
