package netem

import (
	"errors"
	"math/rand/v2"
	"os"
	"sync"
	"time"
)

// Link is an emulated link between two network namespaces, the client's
// and the server's, made by NewLink and ended by Close.
type Link struct {
	spec           Spec
	backend        Backend
	client, server *Namespace
	ctun, stun     *os.File // BackendTUN
	up, down       *ferry   // BackendTUN
	qdiscs         *qdiscs  // BackendNetem
	done           chan struct{}
	wg             sync.WaitGroup
	once           sync.Once
	cc             string // TCP's congestion control in the namespaces
}

// NewLink makes the two namespaces and joins them by the backend
// spec.Backend names: BackendTUN (TUN devices and this process's
// ferries), BackendNetem (a veth pair and the kernel's netem qdisc), or
// for "" and BackendAuto BackendNetem where the kernel has the netem qdisc, else
// BackendTUN. It needs root (CAP_SYS_ADMIN, CAP_NET_ADMIN), and
// /dev/net/tun or ip, tc, veth and sch_netem; without them it returns a
// *SetupError naming what is missing and leaves nothing behind.
func NewLink(spec Spec) (*Link, error) {
	l, err := newLink(spec)
	if err != nil {
		return nil, err
	}
	if err := l.setCC(spec.CC); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// newLink makes spec's link by its backend (NewLink).
func newLink(spec Spec) (*Link, error) {
	switch spec.Backend {
	case BackendTUN:
		return newTUNLink(spec)
	case BackendNetem:
		if err := netemSupport(); err != nil {
			return nil, err
		}
		return newNetemLink(spec, netemQdisc)
	}
	if netemSupport() == nil {
		return newNetemLink(spec, netemQdisc)
	}
	return newTUNLink(spec)
}

// newTUNLink makes the two namespaces, their TUN devices and the ferries
// that apply spec between them.
func newTUNLink(spec Spec) (*Link, error) {
	l := &Link{spec: spec, backend: BackendTUN, done: make(chan struct{})}
	var err error
	l.client, err = newNamespace(func() (err error) {
		l.ctun, err = setupSide("hvc0", clientAddr)
		return err
	})
	if err != nil {
		return nil, err
	}
	l.server, err = newNamespace(func() (err error) {
		l.stun, err = setupSide("hvs0", ServerAddr)
		return err
	})
	if err != nil {
		l.ctun.Close()
		l.client.close()
		return nil, err
	}
	epoch := time.Now()
	l.up = newFerry(l.ctun, l.stun, spec.Up, rand.Uint64(), epoch, l.done)
	l.down = newFerry(l.stun, l.ctun, spec.Down, rand.Uint64(), epoch, l.done)
	l.up.start(&l.wg)
	l.down.start(&l.wg)
	return l, nil
}

// Spec returns the spec the link applies.
func (l *Link) Spec() Spec { return l.spec }

// Backend returns how the link was made: BackendTUN or BackendNetem.
func (l *Link) Backend() Backend { return l.backend }

// Client returns the client's namespace; its address is ClientAddr.
func (l *Link) Client() *Namespace { return l.client }

// Server returns the server's namespace; its address is ServerAddr.
func (l *Link) Server() *Namespace { return l.server }

// Stats returns the counters of the up (client to server) and down
// (server to client) directions so far. Across a BackendNetem link they
// come from the qdiscs (see BackendNetem), read by running tc in each
// namespace (a few milliseconds); zeros when tc cannot be read.
func (l *Link) stats() (up, down DirStats) {
	if l.qdiscs != nil {
		return l.qdiscs.stats(false)
	}
	return l.up.stats(), l.down.stats()
}

// ResetStats returns the counters as Stats does and starts them again
// from zero, so that a caller can count one phase (a calibration, then a
// measurement) apart from the one before. A packet in flight meanwhile may
// be counted as entering in one phase and delivered in the next.
func (l *Link) ResetStats() (up, down DirStats) {
	if l.qdiscs != nil {
		return l.qdiscs.stats(true)
	}
	return l.up.reset(), l.down.reset()
}

// Close stops the ferries, deletes the TUN devices and releases the
// namespaces (the kernel removes each once no process is left in it, and
// a veth pair with its namespace). Processes started with
// Namespace.Start and Pdeathsig get their signal. Close is safe to call
// more than once.
func (l *Link) Close() error {
	var err error
	l.once.Do(func() {
		close(l.done)
		if l.ctun != nil {
			err = errors.Join(l.ctun.Close(), l.stun.Close())
		}
		l.wg.Wait()
		l.client.close()
		l.server.close()
	})
	return err
}
