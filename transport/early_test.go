package transport

import (
	"context"
	"crypto/x509"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/testenv"
)

// TestEarlyDataRefused sends requests in 0-RTT early data from a resumed
// client whose handshake is held back, as a replay of its first flight
// would arrive: a POST is answered 425 Too Early and never reaches the
// handler; a GET is served, and the handler sees it as early data. Once
// the handshake completes, the same POST is served.
func TestEarlyDataRefused(t *testing.T) {
	var posts, earlyGets atomic.Int64
	s, err := NewServer(ServerOptions{
		TLSListen: "127.0.0.1:0",
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				posts.Add(1)
			}
			if r.Method == http.MethodGet && EarlyData(r) {
				earlyGets.Add(1)
			}
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cert, err := x509.ParseCertificate(s.Cert().Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	url := s.URL(H3)
	dial := func() *testenv.ZeroRTTConn {
		c, err := testenv.DialZeroRTT(ctx, s.Addr(H3), cert)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	get := dial()
	if status, _, err := get.Send(ctx, http.MethodGet, url+"/read"); err != nil || status != http.StatusOK || earlyGets.Load() != 1 {
		t.Fatalf("GET in early data: %d, %v, seen as early %d times; want 200, seen once", status, err, earlyGets.Load())
	}
	c := dial()
	status, body, err := c.Send(ctx, http.MethodPost, url+"/state")
	if err != nil {
		t.Fatal(err)
	}
	if status != http.StatusTooEarly || posts.Load() != 0 {
		t.Fatalf("POST in early data: %d %q, handler ran %d times; want 425 and none", status, body, posts.Load())
	}
	if err := c.Complete(ctx); err != nil {
		t.Fatal(err)
	}
	if !c.Used0RTT() {
		t.Fatal("the server did not accept the resumed connection's 0-RTT data")
	}
	if status, _, err := c.Send(ctx, http.MethodPost, url+"/state"); err != nil || status != http.StatusOK || posts.Load() != 1 {
		t.Fatalf("POST after the handshake: %d, %v, handler ran %d times; want 200, once", status, err, posts.Load())
	}
}
