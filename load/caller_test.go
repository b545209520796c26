package load

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/httpvs/httpvs/transport"
)

// fakeCaller answers every call at once with 10 bytes for 3.
type fakeCaller struct{ calls, closed *atomic.Int64 }

func (f fakeCaller) Call(context.Context) (int64, int64, error) {
	f.calls.Add(1)
	return 10, 3, nil
}

func (f fakeCaller) Connections() int64 { return 1 }

func (f fakeCaller) Close() error { f.closed.Add(1); return nil }

func TestCallerReplacesHTTP(t *testing.T) {
	var calls, closed atomic.Int64
	res := mustRun(t, Config{
		URL:    "http://127.0.0.1:1/never-dialed",
		Client: transport.ClientOptions{Protocol: transport.H2C},
		Conns:  3, Streams: 4, Requests: 1000, CallerName: "fake",
		NewCaller: func() (Caller, error) { return fakeCaller{&calls, &closed}, nil },
	})
	if res.Requests != 1000 || calls.Load() != 1000 || res.Errors.Total != 0 {
		t.Fatalf("%d requests, %d calls, errors %v", res.Requests, calls.Load(), res.Errors)
	}
	if res.BytesReceived != 10000 || res.BytesSent != 3000 || res.Connections != 3 || closed.Load() != 3 {
		t.Errorf("received %d, sent %d, %d connections, %d closed", res.BytesReceived, res.BytesSent, res.Connections, closed.Load())
	}
	if res.Engine != "fake" || res.Protocol != "h2c" {
		t.Errorf("engine %q, protocol %q", res.Engine, res.Protocol)
	}
}
