package transport

import (
	"testing"

	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/stats"
)

// wait runs one wait of p on a socket whose data comes after `after`
// empty recv calls (after > polls: not within the wait), as recv does,
// and returns the polls p allowed.
func wait(p *waitPolicy, after int) int {
	k := p.polls()
	switch {
	case k == 0:
	case after <= k:
		p.found(after)
	default:
		p.missed(k + 1)
	}
	return k
}

func TestWaitPolicy(t *testing.T) {
	for _, tc := range []struct {
		name string
		// after lists, wait by wait, after how many empty polls data
		// comes; the list repeats for rounds waits.
		after  []int
		rounds int
		// polling: whether the last wait polled; budget: the polls a
		// wait in credit then makes.
		polling bool
		budget  int
	}{
		{name: "quick finds keep polling, budget shrinks to them", after: []int{1}, rounds: 400, polling: true, budget: minPolls},
		{name: "finds after a few polls keep twice that budget", after: []int{3}, rounds: 400, polling: true, budget: 6},
		{name: "an empty socket stops polling", after: []int{1 << 20}, rounds: 400, polling: false},
		{name: "quick finds half the time keep polling", after: []int{1, 1 << 20}, rounds: 400, polling: true},
		{name: "slow finds half the time stop polling", after: []int{6, 1 << 20}, rounds: 400, polling: false},
		{name: "finds that take what a sleep is worth, and misses, stop polling", after: []int{sleepValue, 1 << 20}, rounds: 400, polling: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newWaitPolicy()
			polled := 0 // waits that polled in the second half
			for i := range tc.rounds {
				if wait(&p, tc.after[i%len(tc.after)]) > 0 && i >= tc.rounds/2 {
					polled++
				}
			}
			// Sleeping, one wait in probeEvery still polls (a probe).
			half := tc.rounds - tc.rounds/2
			if polling := polled > half/2; polling != tc.polling || !polling && polled > 2*half/probeEvery+1 {
				t.Fatalf("%d of the last %d waits polled (credit %d), want polling %v", polled, half, p.credit, tc.polling)
			}
			if tc.polling && tc.budget != 0 && p.budget != tc.budget {
				t.Fatalf("budget %d, want %d", p.budget, tc.budget)
			}
		})
	}
}

// TestWaitPolicyProbes checks that in debt one Read in probeEvery polls
// (maxPolls), and that a probe that finds data quickly brings polling back.
func TestWaitPolicyProbes(t *testing.T) {
	p := newWaitPolicy()
	if k := wait(&p, 1<<20); k != maxPolls {
		t.Fatalf("first wait polled %d times, want %d", k, maxPolls)
	}
	for round := range 3 {
		for i := 1; i < probeEvery; i++ {
			if k := p.polls(); k != 0 {
				t.Fatalf("round %d: Read %d in debt polls %d times, want 0", round, i, k)
			}
		}
		if k := wait(&p, 1<<20); k != maxPolls {
			t.Fatalf("round %d: probe polled %d times, want %d", round, k, maxPolls)
		}
	}
	for p.polls() == 0 {
	}
	p.found(1)
	if k := p.polls(); k == 0 {
		t.Fatalf("after a probe found data at once, the next wait sleeps (credit %d)", p.credit)
	}
}

func TestReadWaitsMode(t *testing.T) {
	for _, tc := range []struct {
		w    stats.ReadWaits
		want string
	}{
		{stats.ReadWaits{}, ""},
		{stats.ReadWaits{Reads: 10, Polled: 6, Polls: 9, Blocked: 3}, vocab.WaitPolling},
		{stats.ReadWaits{Reads: 10, Polled: 3, Polls: 40, Blocked: 6}, vocab.WaitSleeping},
		{stats.ReadWaits{Reads: 10}, vocab.WaitSleeping}, // data was always there: no wait, no poll
	} {
		if got := tc.w.Mode(); got != tc.want {
			t.Errorf("%+v.Mode() = %q, want %q", tc.w, got, tc.want)
		}
	}
}
