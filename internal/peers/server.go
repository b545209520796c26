package peers

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/httpvs/httpvs/internal/pin"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// DefaultReadyTimeout bounds how long Start waits for a server to answer
// on every transport, when ServerOptions.ReadyTimeout is zero: 15 s.
const DefaultReadyTimeout = 15 * time.Second

// startAttempts is how many times Start picks ports and starts a server
// that lost a race for one of them.
const startAttempts = 3

// ServerOptions configure a server peer. The zero value serves SmallPath
// and SinkPath only, with a fresh self-signed certificate.
type ServerOptions struct {
	// Sizes are the payloads to serve, each at PayloadPath(size), in bytes.
	Sizes []units.Bytes
	// Cert is the TLS certificate; if zero, transport.SelfSigned's.
	Cert tls.Certificate
	// ReadyTimeout bounds the wait for the server to answer; if zero,
	// DefaultReadyTimeout.
	ReadyTimeout time.Duration
	// CPUs, if set, bind the server's processes (and the workers they
	// fork) to these CPUs from their start, as `httpvs run` pins its own
	// server apart from the generator; nil leaves them to the scheduler.
	CPUs []int
}

// Server is a running server peer. Stop it when done; cancelling the
// context given to Start stops it too.
type Server struct {
	// Peer is the catalog entry of the running server.
	Peer Peer

	cert   tls.Certificate
	l      layout
	urls   map[transport.Protocol]string
	procs  []*child
	cancel context.CancelFunc // ends the watcher of Start's context
	once   sync.Once
	err    error
}

// child is one process of a server peer, leader of its process group.
type child struct {
	cmd  *exec.Cmd
	log  string        // its stdout and stderr
	done chan struct{} // closed when it exited and was waited for
}

// Start runs the server peer name on loopback ephemeral ports with a
// configuration generated into a new temporary directory, and returns
// once a GET of SmallPath has succeeded over every transport the peer
// speaks (Peer.Transports). A port lost to another process between its
// choice and the server's bind is chosen again, up to three times.
func Start(ctx context.Context, name string, opts ServerOptions) (*Server, error) {
	peer, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	b, ok := builders[peer.Name]
	if peer.Role != RoleServer || !ok {
		return nil, fmt.Errorf("peer %s is a %s, not a server", peer.Name, peer.Role)
	}
	bin, err := peer.Path()
	if err != nil {
		return nil, err
	}
	if opts.Cert.Certificate == nil {
		if opts.Cert, err = transport.SelfSigned(); err != nil {
			return nil, err
		}
	}
	if opts.ReadyTimeout <= 0 {
		opts.ReadyTimeout = DefaultReadyTimeout
	}
	for attempt := 1; ; attempt++ {
		s, err := startOnce(ctx, peer, bin, b, opts)
		if err == nil || attempt == startAttempts || !errors.Is(err, errPortTaken) {
			return s, err
		}
	}
}

// errPortTaken marks a start that failed because a port was taken.
var errPortTaken = errors.New("port taken")

func startOnce(ctx context.Context, peer Peer, bin string, b builder, opts ServerOptions) (*Server, error) {
	dir, err := os.MkdirTemp("", "httpvs-peer-"+peer.Name+"-")
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", peer.Name, err)
	}
	s := &Server{Peer: peer, cert: opts.Cert, cancel: func() {}}
	s.l.dir = dir
	fail := func(err error) (*Server, error) {
		stopErr := s.Stop()
		return nil, errors.Join(fmt.Errorf("start %s: %w", peer.Name, err), stopErr)
	}
	if s.l, err = writeTree(dir, opts.Sizes, opts.Cert); err != nil {
		return fail(err)
	}
	if s.l.ports, err = pickPorts(b.ports, b.udp); err != nil {
		return fail(err)
	}
	ln, err := b.build(bin, s.l)
	if err != nil {
		return fail(err)
	}
	s.urls = ln.urls
	for i, argv := range ln.argvs {
		c, err := spawn(argv, ln.env, filepath.Join(dir, fmt.Sprintf("%s-%d.log", peer.Name, i)), opts.CPUs)
		if err != nil {
			return fail(err)
		}
		s.procs = append(s.procs, c)
	}
	readyCtx, cancel := context.WithTimeout(ctx, opts.ReadyTimeout)
	defer cancel()
	if err := s.waitReady(readyCtx); err != nil {
		return fail(err)
	}
	watchCtx, stopWatch := context.WithCancel(ctx)
	s.cancel = stopWatch
	go func() {
		<-watchCtx.Done()
		if ctx.Err() != nil {
			s.Stop()
		}
	}()
	return s, nil
}

// spawn starts argv in a process group of its own with its output in
// logFile, bound to cpus when there are any.
func spawn(argv, env []string, logFile string, cpus []int) (*child, error) {
	out, err := os.Create(logFile)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = out, out
	isolate(cmd)
	c := &child{cmd: cmd, log: logFile, done: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		// The kernel kills the child (Pdeathsig) when the thread that
		// started it ends, and Go ends a thread a goroutine leaves locked
		// (a network namespace's do): hold this one until the child exits.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := pin.Start(cmd, cpus); err != nil {
			started <- err
			return
		}
		started <- nil
		_ = cmd.Wait()
		close(c.done)
	}()
	err = <-started
	out.Close() // the child holds its own descriptor
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", argv[0], err)
	}
	return c, nil
}

// URL returns the base URL (scheme://127.0.0.1:port, no slash) at which
// the server speaks transport p, or "" if it does not.
func (s *Server) URL(p transport.Protocol) string { return s.urls[p] }

// PayloadURL returns the URL of the payload of size bytes over p ("" if
// the server does not speak p). Only sizes given in ServerOptions.Sizes
// exist.
func (s *Server) PayloadURL(p transport.Protocol, size units.Bytes) string {
	return s.pathURL(p, PayloadPath(size))
}

// SmallURL returns the URL of SmallPath over p, or "".
func (s *Server) SmallURL(p transport.Protocol) string { return s.pathURL(p, SmallPath) }

// SinkURL returns the URL of SinkPath over p, or "" if the server does
// not read whole upload bodies over p (Peer.Sink).
func (s *Server) SinkURL(p transport.Protocol) string {
	if !s.Peer.Sinks(p) {
		return ""
	}
	return s.pathURL(p, SinkPath)
}

func (s *Server) pathURL(p transport.Protocol, path string) string {
	if u := s.urls[p]; u != "" {
		return u + path
	}
	return ""
}

// Cert returns the server's TLS certificate, for clients to trust.
func (s *Server) Cert() tls.Certificate { return s.cert }

// CertFile returns the path of the server's PEM certificate (curl
// --cacert); it is removed by Stop.
func (s *Server) CertFile() string { return s.l.certFile }

// CPU returns the user and system CPU seconds the server's processes have
// used since they started (every process of its process groups, and the
// children they have waited for). Subtract two readings to measure a run.
func (s *Server) CPU() (CPUTime, error) {
	var sum CPUTime
	for _, c := range s.procs {
		t, err := groupCPU(c.cmd.Process.Pid)
		if err != nil {
			return CPUTime{}, err
		}
		sum.User += t.User
		sum.System += t.System
	}
	return sum, nil
}

// PIDs returns the process ids of every live process of the server.
func (s *Server) PIDs() []int {
	var pids []int
	for _, c := range s.procs {
		pids = append(pids, groupAlive(c.cmd.Process.Pid)...)
	}
	return pids
}

// Stop's bounds: how long the server has to exit on SIGTERM before
// SIGKILL, and how long killed processes have to go.
const (
	termWait = 2 * time.Second
	stopWait = 5 * time.Second
)

// Stop ends every process of the server (SIGTERM, then SIGKILL for what
// is left after 2 s) and removes its directory. It returns an error if a
// process outlived the kill. Calling it again returns the first call's
// result.
func (s *Server) Stop() error {
	s.once.Do(func() {
		s.cancel()
		s.err = s.kill()
		if err := os.RemoveAll(s.l.dir); err != nil {
			s.err = errors.Join(s.err, err)
		}
	})
	return s.err
}

func (s *Server) kill() error {
	for _, c := range s.procs {
		termGroup(c.cmd.Process.Pid)
	}
	grace := time.After(termWait)
	for _, c := range s.procs {
		select {
		case <-c.done:
		case <-grace:
		}
	}
	deadline := time.Now().Add(stopWait)
	for _, c := range s.procs {
		killGroup(c.cmd.Process.Pid)
	}
	var left []string
	for _, c := range s.procs {
		select {
		case <-c.done:
		case <-time.After(time.Until(deadline)):
			left = append(left, fmt.Sprint(c.cmd.Process.Pid))
		}
		for pids := groupAlive(c.cmd.Process.Pid); len(pids) > 0; pids = groupAlive(c.cmd.Process.Pid) {
			if time.Now().After(deadline) {
				left = append(left, fmt.Sprint(pids))
				break
			}
			killGroup(c.cmd.Process.Pid)
			time.Sleep(10 * time.Millisecond)
		}
	}
	if len(left) > 0 {
		return fmt.Errorf("stop %s: processes %s still running after %v", s.Peer.Name, strings.Join(left, " "), stopWait)
	}
	return nil
}
