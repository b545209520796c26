package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transfer"
	"github.com/httpvs/httpvs/transfer/transferresult"
	"github.com/httpvs/httpvs/transport"
)

// TestTransferFailure names what failed, of how many, and the hint that
// fits the kind: a server to start, or the timeout that expired.
func TestTransferFailure(t *testing.T) {
	p := transfer.Plan{RequestTimeout: time.Minute}
	p.Client.Protocol = transport.H3
	for _, c := range []struct {
		name string
		res  transferresult.Result
		want []string
	}{
		{"refused", transferresult.Result{Streams: 2, FirstError: "dial: refused", Errors: stats.ErrorCounts{Total: 1, Refused: 1}},
			[]string{"of 2 transfers failed: dial: refused", "httpvs serve"}},
		{"no connection", transferresult.Result{Streams: 1, SetupTimeouts: 1, Errors: stats.ErrorCounts{Total: 1, Timeout: 1}},
			[]string{"--dial-timeout", "HTTP/3 server listening on that UDP port"}},
		{"slow", transferresult.Result{Streams: 1, Errors: stats.ErrorCounts{Total: 1, Timeout: 1}},
			[]string{"longer than --timeout 1m0s fails"}},
		{"interrupted", transferresult.Result{Interrupted: true}, []string{"interrupted"}},
	} {
		got := TransferFailure(c.res, p)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", c.name, got, w)
			}
		}
	}
}

// TestCostLine says the cells, where, the rounds and the time, and what
// the budget does to them.
func TestCostLine(t *testing.T) {
	p := experiment.Cost{Estimate: plan.Estimate{Cells: 10, Rounds: 3, MaxRounds: 8, Time: 20 * time.Second}, Spent: time.Second, Budget: time.Minute}
	if got, want := CostLine(p), "httpvs run: 10 cells on loopback, 3 round(s) each: about 21s in all, at most 1m0s: cells still undetermined get up to 8 rounds within it (--budget)"; got != want {
		t.Errorf("CostLine:\n got %q\nwant %q", got, want)
	}
	p.Budget = 10 * time.Second
	if got := CostLine(p); !strings.Contains(got, "past --budget 10s: every cell still gets its 3 first round(s)") {
		t.Errorf("past the budget: %q", got)
	}
	// Some cells get fewer (a slow request of the user's): the range.
	p.Estimate.Fewest = 1
	if got, want := CostLine(p), "httpvs run: 10 cells on loopback, 1 to 3 round(s) each: about 21s in all, past --budget 10s: every cell still gets its 1 to 3 first round(s)"; got != want {
		t.Errorf("some cells fewer:\n got %q\nwant %q", got, want)
	}
}
