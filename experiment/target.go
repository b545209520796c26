package experiment

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"time"

	"github.com/httpvs/httpvs/internal/fielderr"
	"github.com/httpvs/httpvs/plan"
)

// reachTarget fails fast on an external target whose base URLs are
// malformed (an *OptionsError naming the field) or that does not accept
// TCP connections, before anything is measured. When t.TLS's host is an
// IP address and t.ServerName is empty, it sets t.ServerName to the name
// of the certificate the server presents over TCP (learnServerName) and
// tells warn (a *ServerNameNote), or fails with a *ServerNameError when
// the server refuses a handshake without a name.
func reachTarget(ctx context.Context, t *plan.Target, warn func(error)) error {
	for _, u := range []struct{ field, raw, scheme string }{{"Target.Plain", t.Plain, "http"}, {"Target.TLS", t.TLS, "https"}} {
		if u.raw == "" {
			continue
		}
		p, err := url.Parse(u.raw)
		if err != nil || p.Scheme != u.scheme || p.Host == "" || p.Port() == "" || (p.Path != "" && p.Path != "/") || p.RawQuery != "" {
			return &OptionsError{fielderr.New(u.field, u.raw, "a base URL %s://host:port", u.scheme)}
		}
		d := net.Dialer{Timeout: 3 * time.Second}
		conn, err := d.DialContext(ctx, "tcp", p.Host)
		if err != nil {
			return fmt.Errorf("the target %s is unreachable: %v", u.raw, err)
		}
		conn.Close()
		if u.scheme != "https" || t.ServerName != "" || net.ParseIP(p.Hostname()) == nil {
			continue
		}
		dial := func() (net.Conn, error) { return d.DialContext(ctx, "tcp", p.Host) }
		name, err := learnServerName(ctx, dial, p.Hostname())
		switch {
		case err != nil:
			return &ServerNameError{URL: t.TLS, Err: err}
		case name != "":
			t.ServerName = name
			if warn != nil {
				warn(&ServerNameNote{URL: t.TLS, Name: name})
			}
		}
	}
	return nil
}
