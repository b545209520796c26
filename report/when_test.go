package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// TestWhenLoss checks the When table's loss row: per link, the loss set
// beside the loss the link dealt the cells, summed over every cell's
// completed repetitions (the interrupted one left out); the link's counters
// over the cells when no repetition has its own; "-" on loopback.
func TestWhenLoss(t *testing.T) {
	loopback := sampleRun()
	lossy := sampleRun()
	lossy.Settings.Net = &results.Net{Spec: "lossy", Configured: "delay=25ms,rate=10mbit,loss=5%",
		Up: results.NetDirection{Loss: 0.05}, Down: results.NetDirection{Loss: 0.05}}
	link := func(upPkts, upLost, downPkts, downLost int64) *results.RepetitionLink {
		return &results.RepetitionLink{
			Up:   results.NetCounters{Packets: upPkts, Lost: upLost},
			Down: results.NetCounters{Packets: downPkts, Lost: downLost},
		}
	}
	h1 := lossy.Cell("download", "h1")
	h1.Repetitions[0].Link = link(1000, 40, 2000, 100)
	h1.Repetitions[1].Link = link(1000, 60, 2000, 100)
	h1.Repetitions[2].Link = link(1000, 900, 2000, 900)
	h1.Repetitions[2].Interrupted = true
	for i := range lossy.Cell("download", "h2c").Repetitions {
		lossy.Cell("download", "h2c").Repetitions[i].Link = link(1000, 10, 2000, 30)
	}
	// Up: (40+60+30) of (2000+3000) = 2.6%; down: (200+90) of (4000+6000) = 2.9%.
	const want = "set 5.0%/5.0%, measured 2.6%/2.9%"
	// A run from before repetitions had counters: the run's own, 12 of 1000 up.
	old := sampleRun()
	old.Settings.Net = &results.Net{Spec: "rtt=40ms,loss=1%", Up: results.NetDirection{Loss: 0.01}, Down: results.NetDirection{Loss: 0.01},
		UpCounters: results.NetCounters{Packets: 1000, Lost: 12}, DownCounters: results.NetCounters{Packets: 3000}}
	const wantOld = "set 1.0%/1.0%, measured 1.2%/0%"
	runs := []*results.Results{loopback, lossy, old}
	for _, r := range runs {
		analysis.Conclude(r)
	}

	var text bytes.Buffer
	if err := When(&text, runs); err != nil {
		t.Fatal(err)
	}
	var row string
	for _, line := range strings.Split(text.String(), "\n") {
		if strings.Contains(line, "loss up/down") {
			row = line
		}
	}
	fields := strings.Split(strings.TrimSpace(strings.TrimPrefix(row, "  loss up/down")), "  ")
	var cells []string
	for _, f := range fields {
		if f = strings.TrimSpace(f); f != "" {
			cells = append(cells, f)
		}
	}
	if len(cells) != 3 || cells[0] != "-" || cells[1] != want || cells[2] != wantOld {
		t.Errorf("text loss row %q, want -, %q, %q in\n%s", cells, want, wantOld, text.String())
	}

	var md bytes.Buffer
	if err := WhenMarkdown(&md, runs); err != nil {
		t.Fatal(err)
	}
	if wantRow := "| loss up/down |  | - | " + want + " | " + wantOld + " |"; !strings.Contains(md.String(), wantRow+"\n") {
		t.Errorf("no %q in\n%s", wantRow, md.String())
	}
}

// TestWhenHTML checks the When page: a column per link, the measured link
// and loss rows, and each cell coloured as the verdict's heat map (h2c's
// download at about 0.48x h1: red; small-sequential at 0.64x: red too).
func TestWhenHTML(t *testing.T) {
	loopback := sampleRun()
	lossy := sampleRun()
	lossy.Settings.Net = &results.Net{Spec: "lossy", Up: results.NetDirection{Loss: 0.05}, Down: results.NetDirection{Loss: 0.05}}
	for _, res := range []*results.Results{loopback, lossy} {
		analysis.Summarise(res)
	}
	var page bytes.Buffer
	if err := whenHTML(&page, []*results.Results{loopback, lossy}); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	for _, want := range []string{"<th>loopback</th><th>lossy</th>", "<td>loss up/down</td><td></td><td>-</td><td>set 5.0%/5.0%, measured -</td>",
		"<td>download</td><td>h2c</td>", "<td>small-sequential</td><td>h2c</td>"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in\n%s", want, html)
		}
	}
	iv := loopback.Cell("download", "h2c").VsBaseline
	if iv == nil || iv.Verdict != results.VerdictSlower {
		t.Fatalf("download h2c interval %+v, want slower", iv)
	}
	if n := strings.Count(html, `style="background: hsl(0, 70%`); n != 4 {
		t.Errorf("%d red cells, want download and small-sequential over h2c on both links:\n%s", n, html)
	}
}
