package experiment

import (
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
	"github.com/httpvs/httpvs/transport"
)

// ChildEnv is set to "1" in the environment of a child server StartChild
// starts; a test binary standing in for httpvs (Options.Executable) checks
// it in TestMain to act as httpvs.
const ChildEnv = "HTTPVS_CHILD"

// ChildReadyTimeout bounds a child server's start-up.
const ChildReadyTimeout = 15 * time.Second

// ChildReady is the line `httpvs serve --child` prints once it listens
// (Announce), and StartChild reads.
type ChildReady struct {
	PID     int    `json:"pid"`
	Plain   string `json:"plain"`    // base URL for h1 and h2c
	TLS     string `json:"tls"`      // base URL for h1-tls and h2
	H3      bool   `json:"h3"`       // h3 is served on TLS's port number, over UDP
	GRPC    string `json:"grpc"`     // host:port of the native gRPC listener
	CertPEM string `json:"cert_pem"` // the server's certificate
	// Server is the knobs the child serves with, as it read them (zero
	// fields: Go's, quic-go's and config.DefaultWriteSize): what the
	// results record, not what the parent asked for.
	Server config.Server `json:"server"`
}

// ServerConfigFlag is the `httpvs serve` flag that gives a child server
// its knobs, a config.Server as JSON (StartChild's callers pass
// Options.Server through it).
const ServerConfigFlag = "--server-config"

// Announce prints the ready line of a child server: ts's URLs, its
// certificate, grpcAddr (the host:port of its native gRPC listener) and
// cfg, the knobs it serves with.
func Announce(w io.Writer, ts *transport.Server, grpcAddr string, cfg config.Server) error {
	line, err := json.Marshal(ChildReady{
		PID:     os.Getpid(),
		Plain:   ts.URL(transport.H1),
		TLS:     ts.URL(transport.H2),
		H3:      ts.Has(transport.H3),
		GRPC:    grpcAddr,
		CertPEM: string(transport.CertPEM(ts.Cert())),
		Server:  cfg,
	})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", line)
	return err
}

// Child is `httpvs serve --child` running as a separate process, so
// that its CPU and memory are measured apart from the client's. It never
// outlives its parent: it exits when its stdin (held by the parent) closes,
// and on Linux the kernel kills it when the parent dies.
type Child struct {
	// Ready is what the child announced: its URLs and certificate.
	Ready ChildReady
	// Roots trusts the child's certificate.
	Roots *x509.CertPool
	proc  *childproc.Proc
}

// StartChild starts exe (an httpvs binary; "" means this program's own,
// os.Executable) as `serve --child` with the extra serve flags args, inside
// ns listening on netem.ServerAddr, or on loopback ephemeral ports when ns
// is nil, and waits until it is ready.
func StartChild(ctx context.Context, exe string, ns *netem.Namespace, args []string) (*Child, error) {
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
	argv := append([]string{"serve", "--child", "--listen", addr, "--tls-listen", addr, "--grpc-listen", addr}, args...)
	cmd := exec.Command(exe, argv...)
	cmd.Env = append(os.Environ(), ChildEnv+"=1", TokenEnv+"="+ClientToken())
	proc, err := childproc.Start(cmd, start)
	if err != nil {
		return nil, fmt.Errorf("start server %s: %w", exe, err)
	}
	c := &Child{proc: proc}
	line, err := proc.Next(ctx, ChildReadyTimeout)
	if err != nil {
		c.Stop()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("server not ready: %w", err)
	}
	proc.Discard()
	if err := json.Unmarshal([]byte(line), &c.Ready); err != nil || c.Ready.PID == 0 {
		c.Stop()
		return nil, fmt.Errorf("server said %q, not its ready line", line)
	}
	c.Roots = x509.NewCertPool()
	if !c.Roots.AppendCertsFromPEM([]byte(c.Ready.CertPEM)) {
		c.Stop()
		return nil, errors.New("server's certificate is not PEM")
	}
	return c, nil
}

// ServerDiedError is a child server that exited before it was stopped:
// the figures measured since are not its.
type ServerDiedError struct {
	Status string // how it ended: "exit status 2", "signal: killed"
	Stderr string // the last line it wrote to stderr, if any
}

func (e *ServerDiedError) Error() string {
	msg := "the server (httpvs serve, started by run) died mid-run: " + e.Status
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	return msg
}

// Watch calls died, once, if the child exits before stop is called;
// stop ends the watch (call it before Stop).
func (c *Child) Watch(died func(error)) (stop func()) {
	stopped := make(chan struct{})
	go func() {
		select {
		case <-c.proc.Exited():
			died(&ServerDiedError{Status: c.proc.State(), Stderr: c.proc.Stderr("")})
		case <-stopped:
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(stopped) }) }
}

// Stop asks the child to exit (closing its stdin), kills it if it has not
// within 5 s, and reaps it.
func (c *Child) Stop() { c.proc.Stop(5 * time.Second) }
