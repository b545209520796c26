package matrix

import (
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// TestFitLossEvents: on a 10 Mbit/s, 100 ms, 1% link under Reno, 100 loss
// events per download take minutes; a budget of two minutes says so up
// front, with the time they would take, and sizes for fewer; without a
// budget the sizing stands and is said.
func TestFitLossEvents(t *testing.T) {
	n := &results.Net{Spec: "rtt=100ms,rate=10mbit,loss=1%,cc=reno", TCPCongestion: "reno"}
	n.Up.DelaySeconds, n.Down.DelaySeconds = 0.05, 0.05
	n.Up.RateBitsPerSecond, n.Down.RateBitsPerSecond = 10e6, 10e6
	n.Up.Loss, n.Down.Loss = 0.01, 0.01
	sc, _ := ScenarioByName("download")
	m := Options{Options: plan.Options{Scenarios: []plan.Scenario{sc}, Repeat: 3,
		Protocols: []transport.Protocol{transport.H1TLS, transport.H2},
	}, Wiring: Wiring{Link: n, RTT: 100 * time.Millisecond, Target: plan.Target{TLS: "https://198.18.0.2:1"}}}
	full, err := EstimateRun(m)
	if err != nil {
		t.Fatal(err)
	}
	o, est, lines := fitLossEvents(m, full, PlanOptions{Budget: 2 * time.Minute, Began: time.Now()})
	t.Log(full.Time, est.Time, lines)
	if full.Time < 5*time.Minute || est.Time > 2*time.Minute || o.LossEvents >= defaults.LossEvents || o.LossEvents < minLossEvents {
		t.Errorf("estimate %v -> %v with %d loss events: want over 5 min cut to the 2 min budget", full.Time, est.Time, o.LossEvents)
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, "cannot see 100 loss events") || !strings.Contains(last, "takes about") {
		t.Errorf("sizing %q: want it to say up front that 100 losses do not fit and how long they take", lines)
	}
	o, _, lines = fitLossEvents(m, full, PlanOptions{Began: time.Now()})
	if len(lines) != 1 || !strings.Contains(lines[0], "100 loss events") || o.LossEvents != 0 {
		t.Errorf("no budget: %q, %d; want the sizing said and kept", lines, o.LossEvents)
	}
}
