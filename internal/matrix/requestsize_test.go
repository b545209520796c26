package matrix

import (
	"context"
	"fmt"
	"io"
	"net/http"
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
	const slow = 25 * time.Millisecond
	mux := http.NewServeMux()
	mux.HandleFunc("/slow", func(w http.ResponseWriter, _ *http.Request) { time.Sleep(slow); io.WriteString(w, "ok") })
	mux.HandleFunc("/fast", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })
	o := Options{Options: plan.Options{
		Protocols: []transport.Protocol{transport.H1, transport.H2C},
		Scenarios: plan.RequestScenarios([]results.Request{{Method: "GET", Path: "/slow"}, {Method: "GET", Path: "/fast"}}),
		Repeat:    8,
		Duration:  100 * time.Millisecond,
	}, Wiring: Wiring{Target: target(t, mux)}}
	const budget = 15 * time.Second
	sized, notes := sizeRequests(context.Background(), o, budget)
	if sized.Duration != o.Duration || sized.Warmup != 0 || sized.Repeat != 8 || spec(&o.Scenarios[0]).Duration != 0 {
		t.Fatalf("options changed beyond the scenarios: %+v; the caller's scenarios: %+v", sized, o.Scenarios[0])
	}
	one, many := sized.Scenarios[0], sized.Scenarios[1]
	if spec(&one).Duration < 22*slow || spec(&many).Duration < 120*slow {
		t.Errorf("rounds of %v and %v, want at least %v and %v", spec(&one).Duration, spec(&many).Duration, 22*slow, 120*slow)
	}
	// A round of request-1-x50 over both transports is at least 6 s:
	// one round; request-1's (at least 1.1 s) fewer than 8.
	if spec(&many).Rounds != 1 || spec(&one).Rounds < 1 || spec(&one).Rounds > 7 || sized.repeat(many) != 1 {
		t.Errorf("rounds %d and %d, want 1 and 1 to 7", spec(&many).Rounds, spec(&one).Rounds)
	}
	if e, err := EstimateRun(sized); err != nil || e.Rounds != 8 || e.Fewest != 1 {
		t.Errorf("estimate of %d rounds, the fewest %d, %v; want 8, the fewest 1", e.Rounds, e.Fewest, err)
	}
	text := strings.Join(notes, "\n")
	for _, want := range []string{"request-1: one GET /slow takes", "request-1-x50: 1 round(s), not 8", "to count 20 requests"} {
		if !strings.Contains(text, want) {
			t.Errorf("notes lack %q:\n%s", want, text)
		}
	}
	for _, sc := range sized.Scenarios[2:] {
		if (spec(&sc).Duration > 0 || spec(&sc).Rounds > 0) && !strings.Contains(text, sc.Name+": ") {
			t.Errorf("%s changed without a note", sc.Name)
		}
	}
	// Within 3 s no cut holds the budget (one round of request-1-x50
	// is 6 s): each keeps the fewest rounds an interval is worth.
	sized, notes = sizeRequests(context.Background(), o, 3*time.Second)
	one, many = sized.Scenarios[0], sized.Scenarios[1]
	if sized.repeat(many) != MinFirstStage || sized.repeat(one) != MinFirstStage {
		t.Errorf("rounds %d and %d within 3 s, want %d each", sized.repeat(many), sized.repeat(one), MinFirstStage)
	}
	if text := strings.Join(notes, "\n"); !strings.Contains(text, fmt.Sprintf("request-1-x50: %d round(s), not 8", MinFirstStage)) {
		t.Errorf("notes lack the cut to %d:\n%s", MinFirstStage, text)
	}
}
