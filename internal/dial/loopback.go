package dial

import (
	"net"
	"net/url"
	"strings"
)

// LoopbackHost reports whether host (a name or an address, as a URL's
// Hostname or net.SplitHostPort give it) is this machine's loopback: an
// address in 127.0.0.0/8 or ::1, or the name localhost in any case (RFC
// 6761 reserves it for loopback; DNS names ignore case). The one test of
// loopback the module uses, for listeners, targets and tokens alike.
func LoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// HostPort is the host and port a connection to u goes to: u's port, or
// its scheme's (443 for https, 80 else) when it names none.
func HostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	if u.Scheme == "https" {
		return net.JoinHostPort(u.Hostname(), "443")
	}
	return net.JoinHostPort(u.Hostname(), "80")
}
