package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/results"
)

// historyRuns are n runs of download over h1, h2c and h2: h2c at 0.25x
// rising by 0.05 a run, h2 at 0.5x, each with an interval of ±10% but
// the first (one round: no interval), an A/A column after the second,
// and a commit recorded on the even ones.
func historyRuns(n int) []*results.Results {
	var runs []*results.Results
	start := time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)
	for i := range n {
		r := &results.Results{Started: start.Add(time.Duration(i) * 24 * time.Hour), Settings: results.Settings{Baseline: "h1"}}
		if i%2 == 0 {
			r.Env.Commit = fmt.Sprintf("%07xabcdef", 0xabc0+i)
		}
		for _, c := range []struct {
			p     string
			ratio float64
		}{{"h1", 0}, {"h2c", 0.25 + 0.05*float64(i)}, {"h2", 0.5}} {
			cell := results.Cell{Scenario: "download", Protocol: c.p, Metric: results.MetricBytesPerSecond, Median: 1e9}
			if c.ratio > 0 {
				cell.RatioToBaseline = c.ratio
				if i > 0 {
					cell.VsBaseline = &results.Interval{Ratio: c.ratio, Low: c.ratio * 0.9, High: c.ratio * 1.1, Pairs: 3}
				}
			}
			r.Cells = append(r.Cells, cell)
		}
		if i > 1 {
			r.AA = []results.Cell{{Scenario: "download", Protocol: "h1 A/A", VsBaseline: &results.Interval{Ratio: 1, Low: 0.93, High: 1.08, Pairs: 3}}}
		}
		runs = append(runs, r)
	}
	return runs
}

// svgCounts parses svg as XML and counts its elements by tag and class:
// "circle.point", "line.interval", "rect.aa", "text.run".
func svgCounts(t *testing.T, svg []byte) map[string]int {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	counts := map[string]int{}
	root := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not valid XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if root == "" {
				root = se.Name.Local
			}
			for _, a := range se.Attr {
				if a.Name.Local == "class" {
					counts[se.Name.Local+"."+a.Value]++
				}
			}
		}
	}
	if root != "svg" {
		t.Fatalf("root element %q, want svg", root)
	}
	return counts
}

// TestHistorySVG: the picture parses as SVG, with a point per cell and
// run, a bar per interval (none for the run of one round), an A/A band
// per run that has one, and a label per run: commit where recorded,
// date otherwise.
func TestHistorySVG(t *testing.T) {
	runs := historyRuns(6)
	cells := DefaultHistoryCells(runs)
	if len(cells) != 2 || cells[0].String() != "download/h2c" || cells[1].String() != "download/h2" {
		t.Fatalf("default cells %v, want download/h2c and download/h2", cells)
	}
	var b bytes.Buffer
	if err := historySVG(&b, runs, cells); err != nil {
		t.Fatal(err)
	}
	got := svgCounts(t, b.Bytes())
	want := map[string]int{"circle.point": 12, "line.interval": 10, "rect.aa": 4, "text.run": 6}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %d, want %d", k, got[k], n)
		}
	}
	for _, label := range []string{"000abc0 12-01", "2026-12-02 03:00"} {
		if !strings.Contains(b.String(), ">"+label+"<") {
			t.Errorf("no run labelled %q", label)
		}
	}
	var text bytes.Buffer
	if err := HistoryText(&text, runs, cells); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "0.30x [0.27, 0.33]") || !strings.Contains(text.String(), "0.25x (no interval)") || !strings.Contains(text.String(), "[0.93, 1.08]") {
		t.Errorf("text:\n%s", text.String())
	}
}

func TestHistoryTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{
		{0.05, 3, "[0.05 0.1 0.2 0.5 1 2]"},
		{0.2, 1.2, "[0.2 0.3 0.4 0.5 0.7 1]"},
		{0.9, 1.1, "[0.9 1]"},
	} {
		if got := fmt.Sprint(historyTicks(c.lo, c.hi)); got != c.want {
			t.Errorf("ticks in [%g, %g]: %s, want %s", c.lo, c.hi, got, c.want)
		}
	}
}
