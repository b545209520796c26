package transport

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/httpvs/httpvs/netem"
)

// linkServer makes an emulated link of spec and a server listening on
// every transport in its server namespace; it skips the test where the
// system denies namespaces or TUN devices.
func linkServer(t *testing.T, spec string) (*netem.Link, *Server) {
	t.Helper()
	if testing.Short() {
		t.Skip("an emulated link: not under -short")
	}
	s, err := netem.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	link, err := netem.NewLink(s)
	var se *netem.SetupError
	if errors.As(err, &se) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { link.Close() })
	addr := net.JoinHostPort(netem.ServerAddr.String(), "0")
	var ts *Server
	err = link.Server().Run(func() (err error) {
		ts, err = NewServer(ServerOptions{
			Handler:   http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello") }),
			Listen:    addr,
			TLSListen: addr,
		})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ts.Close() })
	return link, ts
}

// TestClientNetwork sends requests over every transport from the client
// namespace of a link with a 30 ms round trip: each request on a warm
// connection takes at least one round trip, the first one (handshake
// included) at least two, and the server is reachable only across the
// link.
func TestClientNetwork(t *testing.T) {
	const rtt = 30 * time.Millisecond
	link, ts := linkServer(t, "rtt=30ms")
	for _, p := range All {
		c, err := NewClient(ClientOptions{Protocol: p, RootCAs: CertPool(ts.Cert()), Network: link.Client()})
		if err != nil {
			t.Fatal(err)
		}
		for i, min := range []time.Duration{2 * rtt, rtt} {
			req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, ts.URL(p)+"/", nil)
			start := time.Now()
			resp, err := c.Do(req)
			if err != nil {
				t.Fatalf("%s request %d: %v", p, i+1, err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			took := time.Since(start)
			if err != nil || string(body) != "hello" {
				t.Fatalf("%s request %d: %q, %v", p, i+1, body, err)
			}
			if took < min-100*time.Microsecond { // the ferry may write a packet 50 us early
				t.Errorf("%s request %d took %v, under the %v the link imposes", p, i+1, took, min)
			}
		}
		if n := c.Counters().Connections; n != 1 {
			t.Errorf("%s: %d connections, want 1", p, n)
		}
		c.Close()
	}
	// From the process's own network the server's address is unreachable.
	d := net.Dialer{Timeout: 200 * time.Millisecond}
	if conn, err := d.Dial("tcp", ts.Addr(H1)); err == nil {
		conn.Close()
		t.Errorf("dialed %s outside the client namespace", ts.Addr(H1))
	}
}
