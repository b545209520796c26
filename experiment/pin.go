package experiment

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/httpvs/httpvs/internal/pin"
	"github.com/httpvs/httpvs/results"
)

// pinMu is held by the run whose pinning is in force: CPU affinity is the
// process's, so a second run at the same time leaves it alone.
var pinMu sync.Mutex

// pinning is a run's split of the CPUs between the generator (this
// process) and the child server; nil when the run does not pin.
type pinning struct {
	client, server []int
	undo           func()
}

// pinQuietCores is the most CPU other programs may use, in cores, for a
// run to pin: a pinned side cannot move away from another program on its
// core, and on a busy machine pinning widened the spread it is meant to
// narrow (bench/noise.sh). pinQuietTime is how long Run looks.
const (
	pinQuietCores = 0.3
	pinQuietTime  = 300 * time.Millisecond
)

// pinPlan decides whether the run pins and how: on loopback, with a child
// server, Pin set, two CPUs or more, a quiet machine and no other run
// pinned. unlock releases the claim when the run ends; why says why a
// run that would have pinned did not ("" when it pinned or was not to).
func (o *Options) pinPlan(ctx context.Context, link *emuLink) (p *pinning, unlock func(), why string) {
	none := func() {}
	if !o.Pin || link != nil || o.Target.Plain != "" || o.Target.TLS != "" {
		return nil, none, ""
	}
	cpus, err := pin.Available()
	if err != nil {
		return nil, none, ""
	}
	client, server, ok := pin.Split(cpus)
	if !ok {
		return nil, none, ""
	}
	if busy, err := pin.Foreign(ctx, pinQuietTime); err == nil && busy > pinQuietCores {
		return nil, none, fmt.Sprintf("other programs used %.1f cores as the run started: a pinned side could not move away from them", busy)
	}
	if !pinMu.TryLock() {
		return nil, none, "another run in this process holds the CPUs"
	}
	return &pinning{client: client, server: server}, pinMu.Unlock, ""
}

// serverCPUs are the CPUs the child server is pinned to; nil: none.
func (p *pinning) serverCPUs() []int {
	if p == nil {
		return nil
	}
	return p.server
}

// self pins this process (the generator), after the child has started
// with the mask it was given.
func (p *pinning) self() error {
	if p == nil {
		return nil
	}
	undo, err := pin.Self(p.client)
	if err != nil {
		return fmt.Errorf("not pinned: %w", err)
	}
	p.undo = undo
	return nil
}

// restore gives this process its CPUs and GOMAXPROCS back.
func (p *pinning) restore() {
	if p != nil && p.undo != nil {
		p.undo()
	}
}

// result is what the results record of p.
func (p *pinning) result() *results.Pin {
	if p == nil || p.undo == nil {
		return nil
	}
	return &results.Pin{ClientCPUs: p.client, ServerCPUs: p.server, ClientGOMAXPROCS: len(p.client), ServerGOMAXPROCS: len(p.server)}
}
