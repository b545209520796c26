package transfer

import (
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// TestTransfersAboveServerStreamLimit: more transfers at once than the
// server allows streams per connection are spread over as many more
// connections as it takes, each within the limit, and every one finishes,
// over HTTP/2 (SETTINGS_MAX_CONCURRENT_STREAMS) and HTTP/3 (QUIC
// initial_max_streams_bidi); before, the ones past the limit waited for a
// stream on the one connection, parked by net/http's client with no
// deadline. Within the limit one connection carries them all.
func TestTransfersAboveServerStreamLimit(t *testing.T) {
	opts := server.Loopback()
	opts.Config.HTTP2.MaxConcurrentStreams = 4
	opts.Config.QUIC.MaxIncomingStreams = 4
	srv, err := server.Start(server.Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	f := fixture{ts: srv.Transport, payload: srv.Server}
	for _, p := range []transport.Protocol{transport.H2C, transport.H2, transport.H3} {
		t.Run(p.String(), func(t *testing.T) {
			for _, tt := range []struct {
				parallel, conns int
				raised          bool
			}{{10, 3, true}, {4, 1, false}} {
				pl := f.plan(p, "/1m")
				pl.Transfers, pl.Parallel, pl.RequestTimeout = 2*tt.parallel, tt.parallel, time.Minute
				res := run(t, pl)
				if res.Errors.Total != 0 || res.Bytes != int64(pl.Transfers)*1_000_000 {
					t.Fatalf("-P %d: errors %v (%s), %d bytes; want none and every transfer's", tt.parallel, res.Errors, res.FirstError, res.Bytes)
				}
				if res.Connections != int64(tt.conns) || res.ServerMaxStreams != 4 || (res.ConnectionsRaised != "") != tt.raised {
					t.Fatalf("-P %d: %d connections, server limit %d, raised %q; want %d connections and the limit 4",
						tt.parallel, res.Connections, res.ServerMaxStreams, res.ConnectionsRaised, tt.conns)
				}
				if tt.raised && !strings.Contains(res.ConnectionsRaised, "allows 4 streams") {
					t.Errorf("raised %q: want it to name the server's limit", res.ConnectionsRaised)
				}
			}
		})
	}
	// Uploads take the same path.
	pl := f.plan(transport.H2C, "/sink")
	pl.Direction, pl.Size = Upload, 100*units.KB
	pl.Transfers, pl.Parallel, pl.RequestTimeout = 10, 10, time.Minute
	if res := run(t, pl); res.Errors.Total != 0 || res.Connections != 3 || res.ConnectionsRaised == "" {
		t.Fatalf("uploads -P 10: errors %v (%s), %d connections, raised %q; want none, 3, said", res.Errors, res.FirstError, res.Connections, res.ConnectionsRaised)
	}
}
