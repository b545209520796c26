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
	client, server *Namespace
	ctun, stun     *os.File
	up, down       *ferry
	done           chan struct{}
	wg             sync.WaitGroup
	once           sync.Once
}

// NewLink makes the two namespaces, their TUN devices and the ferries that
// apply spec between them. It needs root (CAP_SYS_ADMIN, CAP_NET_ADMIN) and
// /dev/net/tun; without them it returns a *SetupError and leaves nothing
// behind.
func NewLink(spec Spec) (*Link, error) {
	l := &Link{spec: spec, done: make(chan struct{})}
	var err error
	l.client, err = newNamespace(func() (err error) {
		l.ctun, err = setupSide("hvc0", ClientAddr)
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

// Client returns the client's namespace; its address is ClientAddr.
func (l *Link) Client() *Namespace { return l.client }

// Server returns the server's namespace; its address is ServerAddr.
func (l *Link) Server() *Namespace { return l.server }

// Stats returns the counters of the up (client to server) and down
// (server to client) directions so far.
func (l *Link) Stats() (up, down DirStats) { return l.up.stats(), l.down.stats() }

// ResetStats returns the counters as Stats does and starts them again
// from zero, so that a caller can count one phase (a calibration, then a
// measurement) apart from the one before. A packet in flight meanwhile may
// be counted as entering in one phase and delivered in the next.
func (l *Link) ResetStats() (up, down DirStats) { return l.up.reset(), l.down.reset() }

// Close stops the ferries, deletes the TUN devices and releases the
// namespaces (the kernel removes each once no process is left in it).
// Processes started with Namespace.Start and Pdeathsig get their signal.
// Close is safe to call more than once.
func (l *Link) Close() error {
	var err error
	l.once.Do(func() {
		close(l.done)
		err = errors.Join(l.ctun.Close(), l.stun.Close())
		l.wg.Wait()
		l.client.close()
		l.server.close()
	})
	return err
}
