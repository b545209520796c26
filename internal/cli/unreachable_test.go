package cli

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transfer/transferresult"
)

// closedTCPAddr is a loopback address nothing listens on (a port just
// released).
func closedTCPAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// A target nothing listens on: get and put find it out reading the
// server's /stats first, and say so about the URL the user gave, not about
// /stats, in one line with exit 1.
func TestTransferUnreachableNamesTheURL(t *testing.T) {
	addr := closedTCPAddr(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"get", "http://" + addr + "/small"}, "GET http://" + addr + "/small: dial tcp " + addr + ": connect: connection refused; is a server listening there?"},
		{[]string{"get", "-p", "h2", "-k", "https://" + addr + "/1M"}, "GET https://" + addr + "/1M: dial tcp " + addr + ": connect: connection refused"},
		{[]string{"put", "http://" + addr + "/sink", "1k"}, "PUT http://" + addr + "/sink: dial tcp " + addr + ": connect: connection refused"},
	} {
		code, _, stderr := runMain(t, c.args...)
		if code != exitFailure || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "/stats") ||
			strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and one line with %q, no /stats", c.args, code, stderr, c.want)
		}
	}
}

// closedUDPAddr is a loopback UDP address nothing listens on.
func closedUDPAddr(t *testing.T) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := pc.LocalAddr().String()
	pc.Close()
	return addr
}

// silentTCPAddr is a loopback address that accepts connections and never
// says a word: a TLS handshake there waits.
func silentTCPAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String()
}

// A connection that cannot be set up says which bound gave up: the dial
// timeout (for h3, quic-go's handshake idle timeout, which it sets), not
// --timeout, which bounds a transfer; and --timeout when it was that.
func TestTransferTimeoutNamesTheBoundThatExpired(t *testing.T) {
	udp, silent := closedUDPAddr(t), silentTCPAddr(t)
	for _, c := range []struct {
		name  string
		args  []string
		setup int64
		want  []string
	}{
		{"h3 nothing on the UDP port", []string{"-p", "h3", "-k", "-n", "2", "--dial-timeout", "300ms", "https://" + udp + "/1M"}, 2, []string{
			"GET https://" + udp + "/1M: QUIC handshake to " + udp + " did not complete within 300ms, the dial timeout (quic-go's handshake idle timeout)",
			"; gave up after --dial-timeout 300ms with no connection set up: is an HTTP/3 server listening on that UDP port?"}},
		{"h2 TLS handshake unanswered", []string{"-p", "h2", "-k", "--dial-timeout", "300ms", "https://" + silent + "/1M"}, 1, []string{
			"GET https://" + silent + "/1M: TLS handshake to " + silent + " did not complete within 300ms, the dial timeout",
			"; gave up after --dial-timeout 300ms with no connection set up: is a server listening there?"}},
		{"h3 --timeout first", []string{"-p", "h3", "-k", "--no-server-stats", "--dial-timeout", "10s", "--timeout", "300ms", "https://" + udp + "/1M"}, 0, []string{
			"GET https://" + udp + "/1M: ", "; a transfer that takes longer than --timeout 300ms fails"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, append([]string{"get", "--json"}, c.args...)...)
			var res transferresult.Result
			if err := json.Unmarshal([]byte(stdout), &res); err != nil {
				t.Fatalf("exit %d, stderr %q: not one JSON object: %v\n%s", code, stderr, err, stdout)
			}
			if code != exitFailure || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Fatalf("exit %d, stderr %q: want exit 1 and one line", code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
			if c.setup > 0 && strings.Contains(stderr, "--timeout ") {
				t.Errorf("stderr %q cites --timeout, which did not expire", stderr)
			}
			if n := int64(res.Streams); res.Errors.Of(stats.ErrTimeout) != n || res.SetupTimeouts != c.setup || res.Connections != 0 {
				t.Errorf("errors %v, setup timeouts %d, connections %d: want %d timeouts, %d of them set-ups, no connection",
					res.Errors, res.SetupTimeouts, res.Connections, n, c.setup)
			}
		})
	}
}

// load --profile against a target nothing listens on: the warning about
// the server's profiles names the target, not the internal profile
// endpoint, and the run's own failure follows it.
func TestProfileUnreachableNamesTheTarget(t *testing.T) {
	addr := closedTCPAddr(t)
	code, _, stderr := runMain(t, "load", "http://"+addr+"/small", "-c", "2", "-d", "300ms", "--profile", t.TempDir())
	want := "httpvs: profile: no server profiles from http://" + addr + " (the client's are still written): dial tcp " + addr + ": connect: connection refused\n"
	if code != exitFailure || !strings.HasPrefix(stderr, want) || strings.Contains(stderr, "/debug/profile") ||
		!strings.Contains(stderr, "httpvs load: every request failed") {
		t.Errorf("exit %d, stderr %q: want exit 1, first %q, then the run's failure", code, stderr, want)
	}
}

// TestProfileRefusesCleartextToken: get and load's --profile of a
// cleartext server beyond loopback is bad input (exit 2 in one line),
// refused before any request, so the token is never sent.
func TestProfileRefusesCleartextToken(t *testing.T) {
	_, err := (&env{stdout: io.Discard, stderr: io.Discard, name: "load"}).startProfile(t.TempDir(), "http://198.51.100.7:8080", "load")
	var ue *flagset.UsageError
	if !errors.As(err, &ue) || strings.Count(err.Error(), "\n") != 0 || !strings.Contains(err.Error(), "--profile") || !strings.Contains(err.Error(), "cleartext") {
		t.Fatalf("startProfile of a remote cleartext server: %v, want a one-line usage error naming --profile", err)
	}
}

// TestLoadFailsOverMaxFailed: load against a server that fails one
// request in three (its body cut off) exits 1 with a FAILED line, unless
// --max-failed allows that many.
func TestLoadFailsOverMaxFailed(t *testing.T) {
	var n sync.Mutex
	count := 0
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Lock()
		count++
		fail := count%3 == 0
		n.Unlock()
		if fail {
			// The body is cut off after its headers: a reset before
			// them would be retried by Go's transport on a reused
			// connection (a GET is replayable) and never reach load.
			w.Header().Set("Content-Length", "10")
			io.WriteString(w, "ok")
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}
		io.WriteString(w, "ok")
	}))
	defer ts.Close()
	code, _, stderr := runMain(t, "load", ts.URL+"/small", "-c", "2", "-n", "300", "--engine", "std")
	if code != exitFailure || !strings.Contains(stderr, "FAILED:") || !strings.Contains(stderr, "more than the 2% allowed") {
		t.Fatalf("exit %d, stderr %q; want 1 with a FAILED line", code, stderr)
	}
	if code, _, stderr := runMain(t, "load", ts.URL+"/small", "-c", "2", "-n", "300", "--engine", "std", "--max-failed", "50"); code != 0 {
		t.Fatalf("with --max-failed 50: exit %d, stderr %q", code, stderr)
	}
}

// TestCompareRefusesLoadResults: compare reads httpvs run's results; two
// load results are refused (exit 2), not compared into an empty table.
func TestCompareRefusesLoadResults(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"a.json", "b.json"} {
		p := dir + "/" + name
		if err := os.WriteFile(p, []byte(`{"kind":"load","schema_version":1,"requests":300}`), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	code, stdout, stderr := runMain(t, "compare", paths[0], paths[1])
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, "a load result, not the results.json of httpvs run") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 2 and the reason", code, stdout, stderr)
	}
}

// TestLoadRefusesAMethodThatIsNoToken: CR LF in --method would smuggle a
// second request; it is refused at parse time (exit 2) on every engine.
func TestLoadRefusesAMethodThatIsNoToken(t *testing.T) {
	for _, engine := range []string{"fast", "std"} {
		code, _, stderr := runMain(t, "load", "http://127.0.0.1:1/small", "--engine", engine, "--method", "GET /x HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET")
		if code != exitUsage || !strings.HasPrefix(stderr, "httpvs load: --method") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("--engine %s: exit %d, stderr %q; want 2 and one line about --method", engine, code, stderr)
		}
	}
}

// TestPortsOutOfRange are bad input: refused at parse time (exit 2).
func TestPortsOutOfRange(t *testing.T) {
	for _, args := range [][]string{
		{"get", "http://127.0.0.1:70000/small"},
		{"load", "http://127.0.0.1:70000/small", "-d", "100ms"},
		{"put", "http://127.0.0.1:70000/sink", "1k"},
		{"serve", "--listen", ":99999"},
	} {
		code, _, stderr := runMain(t, args...)
		if code != exitUsage || !strings.Contains(stderr, "out of range") {
			t.Errorf("%v: exit %d, stderr %q; want 2, out of range", args, code, stderr)
		}
	}
}
