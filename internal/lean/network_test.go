package lean

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/transport"
)

// TestLeanNetwork runs lean clients from the client namespace of a link
// with a 30 ms round trip, against a server in its server namespace: the
// HTTP/1.1 event loop (which makes its own sockets) and HTTP/2 streams.
// Every request on a warm connection takes at least one round trip.
func TestLeanNetwork(t *testing.T) {
	if testing.Short() {
		t.Skip("an emulated link: not under -short")
	}
	const rtt = 30 * time.Millisecond
	spec, err := netem.Parse("rtt=30ms")
	if err != nil {
		t.Fatal(err)
	}
	link, err := netem.NewLink(spec)
	var se *netem.SetupError
	if errors.As(err, &se) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer link.Close()
	addr := net.JoinHostPort(netem.ServerAddr.String(), "0")
	var ts *transport.Server
	if err := link.Server().Run(func() (err error) {
		ts, err = transport.NewServer(transport.ServerOptions{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("hello")) }), Listen: addr, TLSListen: addr})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	for _, p := range loopProtocols() {
		u, _ := url.Parse(ts.URL(p) + "/")
		c, err := NewClient(transport.ClientOptions{Protocol: p, RootCAs: transport.CertPool(ts.Cert()), Network: link.Client()}, Request{URL: u})
		if err != nil {
			t.Fatal(err)
		}
		var fastest time.Duration = time.Hour
		lt := &loopTally{limit: 6}
		l := lt.loop(2, 5*time.Second)
		done := l.Done
		l.Done = func(mark bool, start, end time.Time, resp Response, err error) {
			done(mark, start, end, resp, err)
			fastest = min(fastest, end.Sub(start))
		}
		if err := c.RunLoop(context.Background(), l); err != nil {
			t.Fatal(err)
		}
		if lt.ok != 6 || lt.bytes != 6*5 {
			t.Fatalf("%s: %d ok, %d bytes, errors %v; want 6 and 30", p, lt.ok, lt.bytes, lt.kinds)
		}
		if fastest < rtt-100*time.Microsecond { // the ferry may write a packet 50 us early
			t.Errorf("%s: a request took %v, under the link's %v round trip", p, fastest, rtt)
		}
		c.Close()
	}
}
