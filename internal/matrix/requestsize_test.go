package matrix

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// TestSizeRequests: a request that takes at least 25 ms gets rounds long
// enough to count minRequests of it, and, the run's first rounds then
// estimated past the budget, fewer rounds (at least one), each change
// said in a line; the options are otherwise as given. Only lower bounds
// of time are relied on: sleeping is never faster than asked.
func TestSizeRequests(t *testing.T) {
	const slow = slowSleep
	o := slowAndFast(t)
	const budget = 25 * time.Second
	sized, notes, notRun := sizeRequests(context.Background(), o, budget)
	if sized.Duration != o.Duration || sized.Warmup != 0 || sized.Repeat != 8 || spec(&o.Scenarios[0]).Duration != 0 || len(notRun) != 0 {
		t.Fatalf("options changed beyond the scenarios: %+v; the caller's scenarios: %+v; not run %v", sized, o.Scenarios[0], notRun)
	}
	one, many := sized.Scenarios[0], sized.Scenarios[1]
	if spec(&one).Duration < 22*slow || spec(&many).Duration < 120*slow {
		t.Errorf("rounds of %v and %v, want at least %v and %v", spec(&one).Duration, spec(&many).Duration, 22*slow, 120*slow)
	}
	// A round of request-1-x50 over both transports is at least 6 s:
	// three fit in 25 s, eight do not, so it is cut, the costliest first.
	if r := sized.repeat(many); r < 1 || r > 7 || spec(&many).Rounds != r {
		t.Errorf("request-1-x50 gets %d rounds, want 1 to 7", r)
	}
	if e, err := EstimateRun(sized); err != nil || e.Rounds != 8 || e.Fewest != sized.repeat(many) {
		t.Errorf("estimate of %d rounds, the fewest %d, %v; want 8, the fewest %d", e.Rounds, e.Fewest, err, sized.repeat(many))
	}
	text := strings.Join(notes, "\n")
	for _, want := range []string{"request-1: one GET /slow takes", fmt.Sprintf("request-1-x50: %d round(s), not 8", sized.repeat(many)), "to count 20 requests"} {
		if !strings.Contains(text, want) {
			t.Errorf("notes lack %q:\n%s", want, text)
		}
	}
	for _, sc := range sized.Scenarios[2:] {
		if (spec(&sc).Duration > 0 || spec(&sc).Rounds > 0) && !strings.Contains(text, sc.Name+": ") {
			t.Errorf("%s changed without a note", sc.Name)
		}
	}
}

// slowSleep is how long slowAndFast's /slow takes at least.
const slowSleep = 25 * time.Millisecond

// slowAndFast is a run of a target's /slow (slowSleep) and /fast over h1
// and h2c, 8 rounds of 100 ms.
func slowAndFast(t *testing.T) Options {
	mux := http.NewServeMux()
	mux.HandleFunc("/slow", func(w http.ResponseWriter, _ *http.Request) { time.Sleep(slowSleep); io.WriteString(w, "ok") })
	mux.HandleFunc("/fast", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })
	return Options{Options: plan.Options{
		Protocols: []transport.Protocol{transport.H1, transport.H2C},
		Scenarios: plan.RequestScenarios([]results.Request{{Method: "GET", Path: "/slow"}, {Method: "GET", Path: "/fast"}}),
		Repeat:    8,
		Duration:  100 * time.Millisecond,
	}, Wiring: Wiring{Target: target(t, mux)}}
}

// TestSizeRequestsLeavesOut: within 3 s three rounds of either /slow
// scenario (1.1 s and 6 s a round) are past the budget by themselves:
// both are left out, with the budget that holds them, and /fast's are
// measured.
func TestSizeRequestsLeavesOut(t *testing.T) {
	const slow = slowSleep
	sized, notes, notRun := sizeRequests(context.Background(), slowAndFast(t), 3*time.Second)
	var names []string
	for _, sc := range sized.Scenarios {
		names = append(names, sc.Name)
	}
	if !slices.Equal(names, []string{"request-2", "request-2-x50"}) {
		t.Errorf("scenarios kept %v, want request-2 and request-2-x50", names)
	}
	if len(notRun) != 2 || notRun[0].Scenario != "request-1" || notRun[1].Scenario != "request-1-x50" {
		t.Fatalf("not run %+v, want request-1 and request-1-x50", notRun)
	}
	for _, n := range notRun {
		need, err := time.ParseDuration(n.Value)
		if n.Field != "Budget" || err != nil || need < 3*time.Second+3*22*slow {
			t.Errorf("%+v: want the budget field and a value past 3 s and three rounds", n)
		}
	}
	if text := strings.Join(notes, "\n"); !strings.Contains(text, "request-1-x50: left out: a round of every transport takes about") {
		t.Errorf("notes do not say what was left out:\n%s", text)
	}
}
