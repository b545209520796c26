package server

import (
	"context"
	"crypto/x509"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/testenv"
	"github.com/httpvs/httpvs/transport"
)

// TestEarlyDataGuarded replays what a resumed h3 client sends in 0-RTT
// early data, before its handshake completes: GET /small is served, but
// POST /stats/reset and even GET /debug/profile/heap are answered 425 Too
// Early and change nothing; after the handshake the reset is served.
func TestEarlyDataGuarded(t *testing.T) {
	srv, err := Start(Config{Options: Options{Profiling: true}, Transport: transport.ServerOptions{TLSListen: "127.0.0.1:0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cert, err := x509.ParseCertificate(srv.Transport.Cert().Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	url := srv.Transport.URL(transport.H3)
	early := func(method, path string) (*testenv.ZeroRTTConn, int, string) {
		c, err := testenv.DialZeroRTT(ctx, srv.Transport.Addr(transport.H3), cert)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		status, body, err := c.Send(ctx, method, url+path)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		return c, status, body
	}
	if _, status, _ := early(http.MethodGet, "/small"); status != http.StatusOK {
		t.Fatalf("GET /small in early data: %d, want 200", status)
	}
	requests := func() int64 { return srv.Server.Stats().Protocols[transport.H3.String()].Requests }
	for _, route := range []struct{ method, path string }{{"GET", "/debug/profile/heap"}, {"POST", "/stats/reset"}} {
		_, status, body := early(route.method, route.path)
		if status != http.StatusTooEarly || !strings.Contains(body, "RFC 8470") {
			t.Fatalf("%s %s in early data: %d %q, want 425 citing RFC 8470", route.method, route.path, status, body)
		}
		if got := requests(); got != 1 {
			t.Fatalf("after %s %s in early data the h3 request count is %d, want 1 (not reset)", route.method, route.path, got)
		}
	}
	c, _, _ := early(http.MethodPost, "/stats/reset")
	if err := c.Complete(ctx); err != nil {
		t.Fatal(err)
	}
	if status, _, err := c.Send(ctx, http.MethodPost, url+"/stats/reset"); err != nil || status != http.StatusOK {
		t.Fatalf("POST /stats/reset after the handshake: %d, %v; want 200", status, err)
	}
	if got := requests(); got != 0 {
		t.Fatalf("after the reset the h3 request count is %d, want 0", got)
	}
}
