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
// TCP connections, before anything is measured.
func reachTarget(ctx context.Context, t plan.Target) error {
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
	}
	return nil
}
