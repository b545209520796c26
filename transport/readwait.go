package transport

import (
	"sync/atomic"

	"github.com/httpvs/httpvs/stats"
)

// waitPolicy decides, for one connection, how many non-blocking polls a
// Read makes on an empty socket before it sleeps in a blocking recv.
//
// Polling keeps the reader on its core across a short gap: the sender
// need not wake it, and the sleep and wake-up skipped (a context switch
// on each side; in a VM, an interrupt between processors) are what
// polling buys. Polls of a socket that stays empty buy nothing. So the
// policy keeps an account in polls: a wait that polls ended with data
// after n empty polls earns sleepValue-n, one whose polls all found
// nothing costs them. In credit, the next wait polls up to about twice
// what recent finds took; in debt, Reads sleep at once (one recv each),
// and one wait in probeEvery polls maxPolls times to see whether data
// comes quickly again. No clock is read: polls are the time base, and a
// slower system call only makes each poll wait longer.
type waitPolicy struct {
	budget int // polls the next wait makes while in credit
	credit int // the account, in polls, within [-1, creditCap]
	sleeps int // Reads that slept at once since the last probe
}

const (
	// sleepValue is what a sleep avoided is worth to the reader, in empty
	// polls: a poll is one recv that returns EAGAIN, a sleep two context
	// switches and the wake-up between them. bench/download.sh measures
	// the policy against curl.
	sleepValue = 8
	// maxPolls bounds the polls of one wait after the recv that found the
	// socket empty: a find after more polls than a sleep is worth could
	// not pay. minPolls is the least a wait in credit makes.
	maxPolls = sleepValue
	minPolls = 2
	// creditCap bounds the credit, so that a long run of finds leaves
	// room for only a few fruitless waits once data stops coming quickly.
	creditCap = 8 * sleepValue
	// probeEvery is how many Reads sleep at once, in debt, between probes.
	probeEvery = 256
)

func newWaitPolicy() waitPolicy { return waitPolicy{budget: maxPolls} }

// polls returns how many polls the next wait may make after finding the
// socket empty: 0 to sleep at once, without a first non-blocking recv.
func (p *waitPolicy) polls() int {
	if p.credit >= 0 {
		return p.budget
	}
	if p.sleeps++; p.sleeps < probeEvery {
		return 0
	}
	p.sleeps = 0
	return maxPolls
}

// found records a wait that polls ended with data after n empty recv
// calls (n >= 1).
func (p *waitPolicy) found(n int) {
	p.account(sleepValue - n)
	p.budget = min(max((p.budget+2*n)/2, minPolls), maxPolls)
}

// missed records a wait whose n recv calls all found the socket empty.
func (p *waitPolicy) missed(n int) { p.account(-n) }

// account adds d to the credit. In debt the account is held at -1: how
// deep does not matter, and one probe that pays brings polling back.
func (p *waitPolicy) account(d int) {
	p.credit = min(max(p.credit+d, -1), creditCap)
	if p.credit >= 0 {
		p.sleeps = 0
	}
}

// waitCounter counts a client's blocking-socket Reads by how they
// waited (stats.ReadWaits), across its connections.
type waitCounter struct {
	reads, polled, polls, blocked, batched, stalled atomic.Int64
}

// Snapshot returns the counts so far.
func (w *waitCounter) Snapshot() stats.ReadWaits {
	return stats.ReadWaits{Reads: w.reads.Load(), Polled: w.polled.Load(), Polls: w.polls.Load(), Blocked: w.blocked.Load(),
		Batched: w.batched.Load(), Stalled: w.stalled.Load()}
}
