package analysis

import (
	"math"
	"testing"

	"github.com/httpvs/httpvs/results"
)

// TestSetBrowserVerdict: each transport's last byte is paired with the
// baseline's of the same round; a load that failed or disagreed pairs
// with nothing; h1-tls is the baseline when h1 was not loaded; a
// transport with no round in common gets no ratio.
func TestSetBrowserVerdict(t *testing.T) {
	load := func(round int, p string, lastByte float64) results.BrowserLoad {
		return results.BrowserLoad{Round: round, LastByteSeconds: lastByte, Objects: 10, ByTransport: map[string]int{p: 10}}
	}
	cell := func(p string, loads ...results.BrowserLoad) results.BrowserCell {
		c := results.BrowserCell{Protocol: p, Objects: 10, Loads: loads}
		SummariseBrowser(&c)
		return c
	}
	failed := load(3, "h2", 0)
	failed.Error = "navigation timed out"
	other := load(4, "h2", 0.1) // came over another transport: left out
	other.ByTransport = map[string]int{"h1-tls": 10}
	cells := []results.BrowserCell{
		{Protocol: "h1", Skipped: "not asked for"},
		cell("h1-tls", load(1, "h1-tls", 0.40), load(2, "h1-tls", 0.44), load(3, "h1-tls", 0.42), load(4, "h1-tls", 0.41)),
		cell("h2", load(1, "h2", 0.50), load(2, "h2", 0.55), failed, other),
		cell("h3", load(5, "h3", 0.3)),
	}
	SetBrowserVerdict(cells)
	if cells[1].VsBaseline != nil || cells[3].VsBaseline != nil || cells[0].VsBaseline != nil {
		t.Errorf("baseline, unpaired or skipped cells got ratios: %+v %+v %+v", cells[1].VsBaseline, cells[3].VsBaseline, cells[0].VsBaseline)
	}
	h2 := cells[2]
	want := math.Sqrt(0.40 / 0.50 * 0.44 / 0.55) // rounds 1 and 2 only
	if iv := h2.VsBaseline; iv == nil || h2.Baseline != "h1-tls" || iv.Pairs != 2 || math.Abs(iv.Ratio-want) > 1e-9 || iv.Verdict == "" {
		t.Fatalf("h2: vs %q %+v, want %.4f over two rounds", h2.Baseline, iv, want)
	}
	// Two rounds at exactly 0.8x: an interval of no width, slower.
	if h2.VsBaseline.Verdict != results.VerdictSlower {
		t.Errorf("h2: verdict %q, want %q", h2.VsBaseline.Verdict, results.VerdictSlower)
	}
}
