package cli

import (
	"context"
	"errors"
	"io"
	"net"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/serverctl"
)

// serveGarbage runs serve with args, sends n connections of bytes that are
// no TLS record to its TLS port, stops it, and returns its exit code,
// stdout and stderr.
func serveGarbage(t *testing.T, n int, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut syncBuffer
	done := make(chan int, 1)
	args = append([]string{"serve", "--listen", "127.0.0.1:0", "--tls-listen", "127.0.0.1:0", "--no-h3", "--grpc-listen", ""}, args...)
	go func() { done <- Main(ctx, args, &out, &errOut) }()
	tlsRE := regexp.MustCompile(`h1-tls, h2\s+https://(127\.0\.0\.1:\d+)`)
	var m []string
	for deadline := time.Now().Add(10 * time.Second); m == nil && time.Now().Before(deadline); {
		select {
		case code := <-done:
			t.Fatalf("serve exited %d: %s", code, errOut.String())
		case <-time.After(20 * time.Millisecond):
		}
		m = tlsRE.FindStringSubmatch(out.String())
	}
	if m == nil {
		t.Fatalf("no TLS address in %q", out.String())
	}
	for range n {
		c, err := net.Dial("tcp", m[1])
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Write([]byte{1, 2, 3, 4, 5}); err != nil {
			t.Fatal(err)
		}
		// net/http logs the handshake error before it closes.
		if _, err := io.Copy(io.Discard, c); err != nil && !errors.Is(err, syscall.ECONNRESET) {
			t.Fatal(err)
		}
		c.Close()
	}
	cancel()
	return <-done, out.String(), errOut.String()
}

// TestServeConnErrors: serve counts the connection errors net/http logs
// and says how many as it stops; with -v it prints them to stderr instead.
func TestServeConnErrors(t *testing.T) {
	code, stdout, stderr := serveGarbage(t, 2)
	if code != 0 || !strings.HasSuffix(stdout, "httpvs serve: net/http logged 2 connection errors (TLS handshakes, resets); -v prints them\n") || strings.Contains(stderr, "handshake") {
		t.Fatalf("exit %d; stdout %q; stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = serveGarbage(t, 2, "-v")
	if code != 0 || strings.Contains(stdout, "net/http logged") || strings.Count(stderr, "httpvs serve: ") < 2 || strings.Count(stderr, "TLS handshake error") != 2 {
		t.Fatalf("-v: exit %d; stdout %q; stderr %q", code, stdout, stderr)
	}
}

// TestServeWarnings: serve warns of each listener beyond loopback and,
// without a token, of the routes refused there; and of an open-file limit
// below what --max-conns needs.
func TestServeWarnings(t *testing.T) {
	t.Setenv(serverctl.TokenEnv, "")
	exposedRE := regexp.MustCompile(`(?m)^warning: listening on (\S+), which is not a loopback address: anyone who can reach it can download and upload through this server$`)
	const tokenLine = "httpvs serve: POST /stats/reset and /debug/profile/ are refused beyond loopback without a token: set " + serverctl.TokenEnv + " (or --token) here and for the clients that need them\n"
	code, stdout, stderr := serveGarbage(t, 0, "--listen", ":0")
	m := exposedRE.FindAllStringSubmatch(stderr, -1)
	if code != 0 || len(m) != 1 || !strings.Contains(stdout, "http://"+m[0][1]) || !strings.Contains(stderr, tokenLine) {
		t.Fatalf("exit %d; stdout %q; stderr %q", code, stdout, stderr)
	}
	code, _, stderr = serveGarbage(t, 0, "--listen", ":0", "--token", "x")
	if code != 0 || len(exposedRE.FindAllString(stderr, -1)) != 1 || strings.Contains(stderr, tokenLine) {
		t.Fatalf("--token: exit %d; stderr %q", code, stderr)
	}
	if runtime.GOOS == "windows" {
		return // no open-file limit to read
	}
	code, _, stderr = serveGarbage(t, 0, "--max-conns", "2000000000")
	fdRE := regexp.MustCompile(`(?m)^warning: the open-file limit is \d+, below what --max-conns 2000000000 needs \(2000000064\); connections past it will be refused: raise it \(ulimit -n\) or lower --max-conns$`)
	if code != 0 || !fdRE.MatchString(stderr) || exposedRE.MatchString(stderr) {
		t.Fatalf("--max-conns: exit %d; stderr %q", code, stderr)
	}
}
