package servercpu

import (
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestSummary: one clause a process or reason, naming the labels when
// there is more than one.
func TestSummary(t *testing.T) {
	one := &owner{why: "no socket listens on TCP port 1"}
	r := Reader{used: []use{{label: "h1", o: one}}}
	if got, want := r.Summary(), "server CPU unknown: no socket listens on TCP port 1"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	r.used = append(r.used, use{label: "h3", o: &owner{why: "no socket is bound to UDP port 2"}}, use{label: "h2c", o: one})
	if got, want := r.Summary(), "server CPU unknown over h1, h2c: no socket listens on TCP port 1; unknown over h3: no socket is bound to UDP port 2"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got := (&Reader{}).Summary(); got != "" {
		t.Errorf("none read: %q", got)
	}
}

// TestSocket: the scheme's port where the URL names none, UDP for h3.
func TestSocket(t *testing.T) {
	for _, c := range []struct {
		base     string
		udp      bool
		network  string
		hostport string
	}{
		{"http://127.0.0.1:8080", false, "tcp", "127.0.0.1:8080"},
		{"http://localhost", false, "tcp", "localhost:80"},
		{"https://localhost", true, "udp", "localhost:443"},
		{"https://[::1]", false, "tcp", "[::1]:443"},
	} {
		network, hostport, err := Socket(c.base, c.udp)
		if err != nil || network != c.network || hostport != c.hostport {
			t.Errorf("Socket(%q, %v) = %q, %q, %v; want %q, %q", c.base, c.udp, network, hostport, err, c.network, c.hostport)
		}
	}
}

// TestReadRefuses: a host off the loopback, a port nothing listens on,
// and this process's own socket are unknown with the reason, each once
// in the summary; none is read.
func TestReadRefuses(t *testing.T) {
	if _, err := os.Stat("/proc/net/tcp"); err != nil {
		t.Skip("no /proc/net/tcp:", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	freePort := strconv.Itoa(free.Addr().(*net.TCPAddr).Port)
	free.Close()
	var r Reader
	for _, c := range []struct{ label, hostport, why string }{
		{"a", "198.18.0.1:80", "not on this machine's loopback"},
		{"b", "127.0.0.1:" + freePort, "no socket listens on TCP port " + freePort},
		{"c", ln.Addr().String(), "this process's own"},
		{"d", "127.0.0.1", "missing port"},
	} {
		if _, _, err := r.Read(c.label, "tcp", c.hostport); err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s: %v, want %q", c.hostport, err, c.why)
		}
	}
	if s := r.Summary(); strings.Count(s, "unknown over") != 4 {
		t.Errorf("summary %q: want four clauses", s)
	}
}
