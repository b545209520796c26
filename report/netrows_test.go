package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// TestLinkRows checks the rows that say what the emulated link did to
// each cell: its repetitions' packets summed (the interrupted one left
// out), the share the loss model dropped beside the configured loss, and
// the queue's drops.
func TestLinkRows(t *testing.T) {
	res := sampleRun()
	res.Settings.Net = &results.Net{Spec: "lossy", Configured: "delay=25ms,rate=10mbit,loss=5%",
		Up: results.NetDirection{Loss: 0.05}, Down: results.NetDirection{Loss: 0.05}}
	link := func(upLost, downLost, downQueue int64) *results.RepetitionLink {
		return &results.RepetitionLink{
			Up:   results.NetCounters{Packets: 1000, Lost: upLost},
			Down: results.NetCounters{Packets: 2000, Lost: downLost, QueueDrops: downQueue},
		}
	}
	h1 := res.Cell("download", "h1")
	h1.Repetitions[0].Link = link(40, 100, 0)
	h1.Repetitions[1].Link = link(60, 100, 20)
	h1.Repetitions[2].Link = link(500, 500, 500)
	h1.Repetitions[2].Interrupted = true
	analysis.Conclude(res)
	var b bytes.Buffer
	if err := Matrix(&b, res); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{
		"link packets up/down",
		"2000/4000",
		"link lost up/down (set 5.0%/5.0%)",
		"5.0%/5.0%", // 100 of 2000 up, 200 of 4000 down
		"link queue drops up/down",
		"0%/0.5%", // 20 of 4000
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if strings.Count(text, "link packets") != 1 {
		t.Errorf("link rows in a table without link counters:\n%s", text)
	}
}

func TestPercent(t *testing.T) {
	for f, want := range map[float64]string{0: "0%", 0.0004: "0.04%", 0.012: "1.2%", 0.05: "5.0%", 0.123: "12%"} {
		if got := percent(f); got != want {
			t.Errorf("percent(%v) = %q, want %q", f, got, want)
		}
	}
}
