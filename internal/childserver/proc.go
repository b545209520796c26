package childserver

import (
	"bufio"
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/internal/childproc"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
)

// Ready is the line a child server writes once it listens, or with Error
// alone when it cannot serve.
type Ready struct {
	PID     int    `json:"pid"`
	Plain   string `json:"plain,omitempty"`    // base URL for h1 and h2c
	TLS     string `json:"tls,omitempty"`      // base URL for h1-tls and h2
	H3      bool   `json:"h3,omitempty"`       // h3 is served on TLS's port number, over UDP
	GRPC    string `json:"grpc,omitempty"`     // host:port of the native gRPC listener
	CertPEM string `json:"cert_pem,omitempty"` // the server's certificate
	// Server is the knobs the child serves with, as it read them: what
	// the results record, not what the parent asked for.
	Server config.Server `json:"server"`
	Error  string        `json:"error,omitempty"` // why it does not serve
}

// Child is a started child server. It never outlives its parent: it
// exits when its stdin (held by the parent) closes, and on Linux the
// kernel kills it when the parent dies.
type Child struct {
	// Ready is what the child announced: its URLs and certificate.
	Ready Ready
	// Roots trusts the child's certificate.
	Roots *x509.CertPool
	proc  *childproc.Proc
}

// Start starts exe ("": this program, os.Executable) as the child server
// s describes, inside ns listening on netem.ServerAddr, or on loopback
// when ns is nil, on ephemeral ports, and waits until it is ready.
func Start(ctx context.Context, exe string, ns *netem.Namespace, s Spec) (*Child, error) {
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("start server: find this executable: %w", err)
		}
	}
	host := "127.0.0.1"
	var start func(*exec.Cmd) error
	if ns != nil {
		host, start = netem.ServerAddr.String(), ns.Start
	}
	addr := net.JoinHostPort(host, "0")
	s.Listen, s.TLSListen, s.GRPCListen = addr, addr, addr
	spec, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), Env+"=1")
	proc, err := childproc.Start(cmd, start)
	if err != nil {
		return nil, fmt.Errorf("start server %s: %w", exe, err)
	}
	c := &Child{proc: proc}
	if err := proc.Send(spec); err != nil {
		c.proc.Stop(0)
		return nil, fmt.Errorf("start server %s: %w", exe, err)
	}
	if err := c.ready(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// ready reads the child's ready line; on an error the child is stopped.
func (c *Child) ready(ctx context.Context) error {
	line, err := c.proc.Next(ctx, ReadyTimeout)
	if err != nil {
		c.Stop()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("server not ready: %w", err)
	}
	c.proc.Discard()
	if err := json.Unmarshal([]byte(line), &c.Ready); err != nil || c.Ready.PID == 0 {
		c.Stop()
		return fmt.Errorf("server said %q, not its ready line", line)
	}
	if c.Ready.Error != "" {
		c.proc.Stop(0) // a program that ran an experiment instead may not stop on its own
		return errors.New(c.Ready.Error)
	}
	c.Roots = x509.NewCertPool()
	if !c.Roots.AppendCertsFromPEM([]byte(c.Ready.CertPEM)) {
		c.Stop()
		return errors.New("server's certificate is not PEM")
	}
	return nil
}

// DiedError is a child server that exited before it was stopped: the
// figures measured since are not its.
type DiedError struct {
	Status string // how it ended: "exit status 1", "signal: killed"
	Stderr string // the last line it wrote to stderr, if any
}

func (e *DiedError) Error() string {
	msg := "the child server died mid-run: " + e.Status
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	return msg
}

// Watch calls died, once, with a *DiedError if the child exits before
// stop is called; stop ends the watch (call it before Stop).
func (c *Child) Watch(died func(error)) (stop func()) {
	stopped := make(chan struct{})
	go func() {
		select {
		case <-c.proc.Exited():
			died(&DiedError{Status: c.proc.State(), Stderr: c.proc.Stderr("")})
		case <-stopped:
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(stopped) }) }
}

// Stop asks the child to exit (closing its stdin), kills it if it has not
// within 5 s, and reaps it.
func (c *Child) Stop() { c.proc.Stop(5 * time.Second) }

// Main serves as a child server when this process was started as one
// (Env set), and returns true once the parent lets go of it; in any other
// process it returns false at once. A child that fails exits with status
// 1, its reason on stderr (and in Ready.Error when it never served).
func Main() bool {
	if os.Getenv(Env) == "" {
		return false
	}
	if err := serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "child server: %v\n", err)
		os.Exit(1)
	}
	return true
}

// serve reads the Spec from stdin, starts its server, says so on stdout,
// and serves until stdin closes or the server fails.
func serve(stdin io.Reader, stdout io.Writer) error {
	in := bufio.NewReader(stdin)
	line, err := in.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("read the server's spec: %w", err)
	}
	var s Spec
	if err := json.Unmarshal(line, &s); err != nil {
		return refuse(stdout, fmt.Errorf("the server's spec: %w", err))
	}
	srv, _, err := s.Start()
	if err != nil {
		return refuse(stdout, err)
	}
	defer srv.Close()
	if err := announce(stdout, srv, s.Server); err != nil {
		return err
	}
	gone := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, in)
		close(gone)
	}()
	select {
	case <-gone:
		return nil
	case err := <-srv.Err():
		return fmt.Errorf("serving: %w", err)
	}
}

// announce writes srv's ready line: its URLs, certificate and knobs.
func announce(w io.Writer, srv *server.Running, knobs config.Server) error {
	ts := srv.Transport
	return writeReady(w, Ready{Plain: ts.URL(transport.H1), TLS: ts.URL(transport.H2), H3: ts.Has(transport.H3),
		GRPC: srv.GRPCAddr, CertPEM: string(transport.CertPEM(ts.Cert())), Server: knobs})
}

// refuse tells the parent why this child does not serve, and returns it.
func refuse(w io.Writer, why error) error {
	if err := writeReady(w, Ready{Error: why.Error()}); err != nil {
		return errors.Join(why, err)
	}
	return why
}

func writeReady(w io.Writer, r Ready) error {
	r.PID = os.Getpid()
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.Write(append(line, '\n'))
	return err
}

// Refuse, in a process started as a child server (Env set) that runs
// something else instead of Main, tells the parent why at once and
// returns why as an error; in any other process it returns nil.
func Refuse(why string) error {
	if os.Getenv(Env) == "" {
		return nil
	}
	return refuse(os.Stdout, errors.New(why))
}
