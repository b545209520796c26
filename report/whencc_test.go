package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/matrix"
	"github.com/httpvs/httpvs/results"
)

// ccRun is a download across 10 Mbit/s, 100 ms, 1% loss with TCP on cc:
// h1-tls at tcp bytes per second, h3 at quic-go's Cubic's loss bound.
func ccRun(cc string, tcp float64) *results.Results {
	n := &results.Net{Spec: "rtt=100ms,rate=10mbit,loss=1%,cc=" + cc, Configured: "delay=50ms,rate=10mbit,loss=1%,cc=" + cc, Backend: results.NetBackendTUN, TCPCongestion: cc, QUICCongestion: "quic-go's cubic"}
	n.Up.DelaySeconds, n.Down.DelaySeconds = 0.05, 0.05
	n.Up.RateBitsPerSecond, n.Down.RateBitsPerSecond = 10e6, 10e6
	n.Up.Loss, n.Down.Loss = 0.01, 0.01
	n.Calibration.TCPConnectSeconds, n.Calibration.UDPRTTSeconds = 0.1, 0.1
	res := &results.Results{SchemaVersion: results.SchemaVersion, Settings: results.Settings{Protocols: []string{"h1-tls", "h3"}, Net: n}}
	sc, _ := matrix.ScenarioByName("download")
	for _, c := range []struct {
		p string
		v float64
	}{{"h1-tls", tcp}, {"h3", 0.17e6}} {
		cell := results.Cell{Scenario: "download", Protocol: c.p, Metric: sc.Metric}
		for i, f := range []float64{1, 1.02, 0.98} {
			cell.Repetitions = append(cell.Repetitions, results.Repetition{Round: i + 1, Value: c.v * f, Seconds: 1})
		}
		res.Cells = append(res.Cells, cell)
	}
	analysis.Summarise(res)
	return res
}

// TestWhenByController: the same lossy link under BBR and Reno in one
// report: the controllers named per run, h1-tls at the link under BBR and
// at Reno's loss bound under Reno, the controller named as what moves it.
func TestWhenByController(t *testing.T) {
	var b bytes.Buffer
	if err := When(&b, []*results.Results{ccRun("bbr", 1.15e6), ccRun("reno", 0.18e6)}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"TCP bbr, QUIC quic-go's cubic",
		"by congestion control",
		"download/h1-tls: 1.1 MB/s under bbr (at the link, 95% of the link); 0.2 MB/s under reno (at its controller's loss bound 1.42 Mbit/s",
		"its class against the link differs by controller (separate runs, not paired rounds)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "download/h3: ") && strings.Contains(strings.SplitAfter(out, "download/h3: ")[1], "moves this figure") {
		t.Errorf("h3 ran quic-go's Cubic on both: the controller does not move it:\n%s", out)
	}
}

// TestDetailLossModelRow: on a lossy link the detail table has each
// transfer's share of its controller's loss model beside its share of the
// link.
func TestDetailLossModelRow(t *testing.T) {
	var b bytes.Buffer
	if err := Matrix(&b, ccRun("reno", 0.18e6)); err != nil {
		t.Fatal(err)
	}
	var row string
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.Contains(line, "of loss model") {
			row = line
		}
	}
	if !strings.Contains(row, "of 1.42 Mbit/s (reno)") || !strings.Contains(row, "(quic-go's cubic)") {
		t.Errorf("loss model row %q:\n%s", row, b.String())
	}
}
