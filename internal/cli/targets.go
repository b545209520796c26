package cli

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"time"
)

// checkTargets fails fast, in one line, on a target that is malformed or
// does not accept TCP connections.
func checkTargets(ctx context.Context, plain, tls string) error {
	for _, t := range []struct{ flag, raw, scheme string }{{"--target", plain, "http"}, {"--tls-target", tls, "https"}} {
		if t.raw == "" {
			continue
		}
		u, err := url.Parse(t.raw)
		if err != nil || u.Scheme != t.scheme || u.Host == "" || u.Port() == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
			return usagef("%s %q: want a base URL %s://host:port", t.flag, t.raw, t.scheme)
		}
		d := net.Dialer{Timeout: 3 * time.Second}
		conn, err := d.DialContext(ctx, "tcp", u.Host)
		if err != nil {
			return fmt.Errorf("%s %s is unreachable: %v", t.flag, t.raw, err)
		}
		conn.Close()
	}
	return nil
}
