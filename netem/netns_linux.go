package netem

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// Namespace is a network namespace made by NewLink, held by a file
// descriptor and by one OS thread that stays inside it until the link
// closes.
type Namespace struct {
	fd   int         // /proc/thread-self/ns/net of the worker thread
	reqs chan func() // run on the worker thread
	done chan struct{}
}

// newNamespace makes a network namespace and runs setup on its worker
// thread before returning.
func newNamespace(setup func() error) (*Namespace, error) {
	n := &Namespace{fd: -1, reqs: make(chan func()), done: make(chan struct{})}
	errc := make(chan error, 1)
	goLockedOffMain(func() {
		if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
			errc <- &SetupError{Need: "root (CAP_SYS_ADMIN) to create network namespaces", Err: fmt.Errorf("unshare: %w", err)}
			return
		}
		fd, err := unix.Open("/proc/thread-self/ns/net", unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			errc <- &SetupError{Need: "/proc mounted", Err: err}
			return
		}
		n.fd = fd
		if err := setup(); err != nil {
			unix.Close(fd)
			errc <- err
			return
		}
		errc <- nil
		for {
			select {
			case f := <-n.reqs:
				f()
			case <-n.done:
				return
			}
		}
	})
	if err := <-errc; err != nil {
		return nil, err
	}
	return n, nil
}

// close ends the worker thread (children started with Pdeathsig get their
// signal) and releases the descriptor; the kernel removes the namespace
// when no process is left in it.
func (n *Namespace) close() {
	close(n.done)
	unix.Close(n.fd)
}

// Run calls fn on a new OS thread inside the namespace and returns its
// error. Sockets fn creates stay in the namespace whichever goroutine uses
// them afterwards; goroutines fn starts do not run in the namespace.
func (n *Namespace) Run(fn func() error) error {
	errc := make(chan error, 1)
	goLockedOffMain(func() {
		if err := unix.Setns(n.fd, unix.CLONE_NEWNET); err != nil {
			errc <- fmt.Errorf("setns: %w", err)
			return
		}
		errc <- fn()
	})
	return <-errc
}

// Start starts cmd inside the namespace, from a thread that lives until the
// link closes: a child with SysProcAttr.Pdeathsig gets its signal when the
// link closes or the parent dies.
func (n *Namespace) Start(cmd *exec.Cmd) error {
	errc := make(chan error, 1)
	select {
	case n.reqs <- func() { errc <- cmd.Start() }:
		return <-errc
	case <-n.done:
		return errors.New("start in namespace: link closed")
	}
}

// DialContext dials addr from inside the namespace, as net.Dialer does.
func (n *Namespace) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	return runFor(n, func() (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	})
}

// Listen listens on addr inside the namespace, as net.Listen does.
func (n *Namespace) Listen(network, addr string) (net.Listener, error) {
	return runFor(n, func() (net.Listener, error) { return net.Listen(network, addr) })
}

// ListenPacket listens on addr inside the namespace, as net.ListenPacket does.
func (n *Namespace) ListenPacket(network, addr string) (net.PacketConn, error) {
	return runFor(n, func() (net.PacketConn, error) { return net.ListenPacket(network, addr) })
}

// runFor runs f inside the namespace (n.Run) and returns what it made:
// the one shape of DialContext, Listen and ListenPacket.
func runFor[T any](n *Namespace, f func() (T, error)) (T, error) {
	var v T
	err := n.Run(func() (err error) {
		v, err = f()
		return err
	})
	return v, err
}

// goLockedOffMain runs fn in a new goroutine locked to an OS thread that
// is not the process's main thread, and never unlocks it: when fn returns
// the runtime ends the thread, and with it whatever namespace fn made it
// join. (The runtime cannot end the main thread: a namespace it joined
// would stay with it until the process exits.) While a goroutine holds
// the main thread locked, a goroutine it starts runs on another thread.
func goLockedOffMain(fn func()) {
	go func() {
		runtime.LockOSThread()
		if unix.Gettid() == unix.Getpid() {
			started := make(chan struct{})
			goLockedOffMain(func() { close(started); fn() })
			<-started
			runtime.UnlockOSThread()
			return
		}
		fn()
	}()
}

// sysctl writes a value under /proc/sys for the calling thread's network
// namespace.
func sysctl(path, value string) error {
	return os.WriteFile("/proc/sys/"+path, []byte(value), 0o644)
}
