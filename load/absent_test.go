package load

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// TestAbsentH3ServerCountsTimeouts runs each engine over HTTP/3 against a
// UDP port nothing listens on, for less than the dial timeout: no
// handshake completes and nothing refuses, so every request is still
// waiting when the run ends. Each counts as a timeout and the run says no
// server answered; before, the run read "0 errors".
func TestAbsentH3ServerCountsTimeouts(t *testing.T) {
	t.Parallel() // see TestMain
	waits(t, "2 s runs that nothing answers")
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := pc.LocalAddr().String()
	pc.Close()
	for _, engine := range []Engine{Std, Fast} {
		t.Run(engine.String(), func(t *testing.T) {
			t.Parallel() // nothing shared: a port nothing listens on
			client := transport.ClientOptions{Protocol: transport.H3, Insecure: true}
			client.Config.DialTimeout = time.Minute // longer than the run
			res := mustRun(t, Config{URL: "https://" + addr + "/small", Client: client, Conns: 2, Streams: 1,
				Duration: 2 * time.Second, Engine: engine})
			if res.Succeeded != 0 || res.Errors.Of(stats.ErrTimeout) != 2 || res.Errors.Total != res.Requests {
				t.Fatalf("succeeded %d, errors %v of %d requests (%s); want the 2 requests in flight counted as timeouts",
					res.Succeeded, res.Errors, res.Requests, res.FirstError)
			}
			if !strings.Contains(res.Stopped, "no server answered") || !strings.Contains(res.FirstError, "no server had answered") {
				t.Errorf("stopped %q, first error %q: want both to say no server answered", res.Stopped, res.FirstError)
			}
		})
	}
}
