package cli

import (
	"net"
	"strings"
	"testing"
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
