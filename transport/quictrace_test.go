package transport

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/units"
)

// TestQUICTrace: with tracing on, a 4 MiB h3 download through a 64 KiB
// client stream window shows the server blocked by flow control (its
// STREAM_DATA_BLOCKED frames, sent by it and received by the client) and
// a congestion window at both ends; with tracing off none of it is
// claimed.
func TestQUICTrace(t *testing.T) {
	body := strings.Repeat("x", 4<<20)
	for _, trace := range []bool{false, true} {
		var cfg config.Server
		cfg.QUIC.Trace = trace
		s, err := NewServer(ServerOptions{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) }),
			Listen: "127.0.0.1:0", TLSListen: "127.0.0.1:0", Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		opts := ClientOptions{Protocol: H3, RootCAs: CertPool(s.Cert())}
		opts.Config.QUIC.Trace = trace
		opts.Config.QUIC.InitialStreamReceiveWindow = 64 * units.KiB
		opts.Config.QUIC.MaxStreamReceiveWindow = 64 * units.KiB
		c, err := NewClient(opts)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.HTTP().Get(s.URL(H3) + "/")
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || n != int64(len(body)) {
			t.Fatalf("read %d bytes: %v", n, err)
		}
		cq := c.Counters().QUIC
		sq := s.Counters().QUIC
		c.Close()
		s.Close()
		if !trace {
			if cq.Traced != 0 || sq.Traced != 0 || cq.CongestionWindowBytes != 0 || sq.BlockedFramesSent != 0 {
				t.Fatalf("untraced run claims trace figures: client %+v server %+v", cq, sq)
			}
			continue
		}
		if cq.Traced != 1 || sq.Traced != 1 {
			t.Fatalf("traced connections: client %d, server %d, want 1 each", cq.Traced, sq.Traced)
		}
		if sq.BlockedFramesSent == 0 || cq.BlockedFramesReceived == 0 {
			t.Errorf("blocked frames: server sent %d, client received %d, want some", sq.BlockedFramesSent, cq.BlockedFramesReceived)
		}
		if cq.CongestionWindowBytes <= 0 || sq.CongestionWindowBytes <= 0 {
			t.Errorf("congestion windows: client %d, server %d bytes", cq.CongestionWindowBytes, sq.CongestionWindowBytes)
		}
	}
}
