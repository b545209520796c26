package lean

import (
	"context"
	"crypto/tls"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/httpvs/httpvs/stats"

	"github.com/httpvs/httpvs/transport"
)

func TestLeanRefusesOtherProtocols(t *testing.T) {
	h1only := httptest.NewUnstartedServer(http.NotFoundHandler())
	h1only.TLS = &tls.Config{NextProtos: []string{"http/1.1"}}
	h1only.StartTLS()
	defer h1only.Close()
	u, _ := url.Parse(h1only.URL + "/")
	c, err := NewClient(transport.ClientOptions{Protocol: transport.H2, Insecure: true}, Request{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err = c.NewStream(ctx).Do(5 * time.Second)
	if got := transport.Classify(err); got != stats.ErrProtocol {
		t.Fatalf("h2 against an HTTP/1.1-only server: %v (%v), want a protocol error", err, got)
	}
	var ue *UnsupportedError
	if _, err := NewClient(transport.ClientOptions{Protocol: transport.Protocol(99)}, Request{URL: u}); !errors.As(err, &ue) {
		t.Fatalf("a lean client for an unknown transport: %v, want an UnsupportedError", err)
	}
}

func TestLeanH1KeepAlive(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer srv.Close()
	u, _ := url.Parse(srv.URL + "/small")
	c, err := NewClient(transport.ClientOptions{Protocol: transport.H1}, Request{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := c.NewStream(ctx)
	if _, err := s.Do(time.Second); err != nil { // dial outside the measurement
		t.Fatal(err)
	}
	var resp Response
	allocs := testing.AllocsPerRun(200, func() { resp, err = s.Do(time.Second) })
	if err != nil || resp.Status != 200 || resp.BodyBytes != 2 {
		t.Fatalf("%+v %v", resp, err)
	}
	// The server shares the process; only its allocations may show.
	t.Logf("allocs per request, client and in-process server: %.1f", allocs)
	if c.Connections() != 1 {
		t.Fatalf("connections %d, want 1 (keep-alive)", c.Connections())
	}
}
