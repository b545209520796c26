package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// serveEnv makes the test binary a payload server on loopback, for the
// hostile-client tests to attack and to read the peak RSS of: it prints
// its URLs as one JSON line and serves until stdin closes.
const serveEnv = "HTTPVS_TEST_SERVE"

// Timeouts of the attacked server: short, so that slow attackers are
// dropped within a test's time.
const (
	hostileHeaderTimeout = time.Second
	hostileIdleTimeout   = 3 * time.Second
)

// serveChildURLs is the line the child prints.
type serveChildURLs struct {
	Plain, TLS, H3 string
}

// idleEnv, when set in the child's environment, is its idle timeout
// instead of hostileIdleTimeout (a duration); maxConnsEnv its MaxConns;
// graceEnv its minimum data rate's grace period (a duration) instead of
// the default (internal/defaults.MinDataRateGrace).
const (
	idleEnv     = "HTTPVS_TEST_IDLE"
	maxConnsEnv = "HTTPVS_TEST_MAX_CONNS"
	graceEnv    = "HTTPVS_TEST_GRACE"
)

// slowPeerGrace is the attacked server's grace period in the slow-peer
// attacks: a test waits for it to pass, so it is shorter than the
// default; the floor works alike at any grace.
const slowPeerGrace = time.Second

// slowPeerEnv is the attacked server's environment in the slow-peer
// attacks: MaxConns hostileMaxConns, grace slowPeerGrace.
func slowPeerEnv() []string {
	return []string{maxConnsEnv + "=" + strconv.Itoa(hostileMaxConns), graceEnv + "=" + slowPeerGrace.String()}
}

// serveChild serves until stdin closes.
func serveChild() int {
	opts := Loopback()
	opts.ReadHeaderTimeout, opts.IdleTimeout = hostileHeaderTimeout, hostileIdleTimeout
	if d, err := time.ParseDuration(os.Getenv(idleEnv)); err == nil {
		opts.IdleTimeout = d
	}
	if n, err := strconv.Atoi(os.Getenv(maxConnsEnv)); err == nil {
		opts.MaxConns = n
	}
	if d, err := time.ParseDuration(os.Getenv(graceEnv)); err == nil {
		opts.MinDataRate.Grace = d
	}
	srv, err := Start(Config{Transport: opts})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer srv.Close()
	ts := srv.Transport
	json.NewEncoder(os.Stdout).Encode(serveChildURLs{Plain: ts.URL(transport.H1), TLS: ts.URL(transport.H2), H3: ts.URL(transport.H3)})
	io.Copy(io.Discard, os.Stdin)
	return 0
}

// attacked is a payload server in a child process.
type attacked struct {
	serveChildURLs
	cmd   *exec.Cmd
	stdin io.Closer
	// inPlace, when an attack sets it, is when its attackers were all
	// connected: how long the attack held the server counts from then,
	// not from the dials (29 QUIC handshakes under -race take seconds).
	inPlace time.Time
}

// startAttacked starts the child server, with env added to its
// environment; it ends with the test.
func startAttacked(t *testing.T, env ...string) *attacked {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(append(os.Environ(), serveEnv+"=1"), env...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	a := &attacked{cmd: cmd, stdin: stdin}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	if err := json.NewDecoder(bufio.NewReader(out)).Decode(&a.serveChildURLs); err != nil {
		t.Fatalf("child server: %v", err)
	}
	return a
}

// peakRSS is the child's peak resident set size, in bytes (VmHWM).
func (a *attacked) peakRSS(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", a.cmd.Process.Pid))
	if err != nil {
		t.Skipf("needs /proc: %v", err)
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("VmHWM %q: %v", rest, err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/PID/status")
	return 0
}
