package load

import (
	"strings"
	"testing"

	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
)

// TestStreamsAboveServerLimit: asked for more streams per connection than
// the server allows, both engines run at the server's limit, say so, and
// finish every request; before, net/http's client stalled there with no
// error (300 streams against 250: a few requests in seconds).
func TestStreamsAboveServerLimit(t *testing.T) {
	opts := server.Loopback()
	opts.Config.HTTP2.MaxConcurrentStreams = 8
	srv, err := server.Start(server.Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := srv.Transport
	for _, engine := range []Engine{Std, Fast} {
		for _, p := range []transport.Protocol{transport.H2C, transport.H2} {
			t.Run(engine.String()+"/"+p.String(), func(t *testing.T) {
				res := mustRun(t, Config{
					URL:    ts.URL(p) + "/small",
					Client: transport.ClientOptions{Protocol: p, RootCAs: transport.CertPool(ts.Cert())},
					Conns:  2, Streams: 20, Requests: 400, Engine: engine,
				})
				if res.Succeeded != 400 || res.Errors.Total != 0 {
					t.Fatalf("succeeded %d, errors %v (%s); want 400 and none", res.Succeeded, res.Errors, res.FirstError)
				}
				if res.Concurrency != 16 || res.Asked != 40 || res.ServerMaxStreams != 8 || !strings.Contains(res.Lowered, "allows 8") {
					t.Fatalf("concurrency %d of %d asked, server limit %d, lowered %q; want 16 of 40, 8", res.Concurrency, res.Asked, res.ServerMaxStreams, res.Lowered)
				}
				if res.Connections != 2 {
					t.Errorf("%d connections, want 2", res.Connections)
				}
			})
		}
	}
	// Within the limit nothing is lowered.
	res := mustRun(t, Config{URL: ts.URL(transport.H2C) + "/small", Client: transport.ClientOptions{Protocol: transport.H2C},
		Conns: 1, Streams: 8, Requests: 100})
	if res.Concurrency != 8 || res.Asked != 8 || res.Lowered != "" || res.ServerMaxStreams != 8 {
		t.Fatalf("within the limit: concurrency %d of %d, lowered %q, limit %d", res.Concurrency, res.Asked, res.Lowered, res.ServerMaxStreams)
	}
}

// TestStreamsAboveServerLimitH3: over HTTP/3 the fast engine reads the
// server's QUIC stream limit and runs at it, saying so; quic-go's own
// client queues the requests beyond it, and the std engine is left as it
// was. Every request is answered either way.
func TestStreamsAboveServerLimitH3(t *testing.T) {
	opts := server.Loopback()
	opts.Config.QUIC.MaxIncomingStreams = 8
	srv, err := server.Start(server.Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, engine := range []Engine{Std, Fast} {
		ts := srv.Transport
		res := mustRun(t, Config{
			URL:    ts.URL(transport.H3) + "/small",
			Client: transport.ClientOptions{Protocol: transport.H3, RootCAs: transport.CertPool(ts.Cert())},
			Conns:  2, Streams: 20, Requests: 400, Engine: engine,
		})
		if res.Succeeded != 400 || res.Errors.Total != 0 || res.Connections != 2 {
			t.Fatalf("h3 %s: succeeded %d, errors %v (%s), connections %d; want 400, none, 2", engine, res.Succeeded, res.Errors, res.FirstError, res.Connections)
		}
		lowered := res.Concurrency == 16 && res.ServerMaxStreams == 8 && strings.Contains(res.Lowered, "allows 8")
		if engine == Fast && !lowered || engine == Std && (res.Concurrency != 40 || res.Lowered != "") {
			t.Fatalf("h3 %s: concurrency %d of %d asked, server limit %d, lowered %q", engine, res.Concurrency, res.Asked, res.ServerMaxStreams, res.Lowered)
		}
	}
}
