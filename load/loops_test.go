package load

import (
	"net/url"
	"runtime"
	"testing"

	"github.com/httpvs/httpvs/internal/lean"
	"github.com/httpvs/httpvs/transport"
)

// TestLeanLoopsPlan: HTTP/1.1 runs one loop per core; HTTP/2 one per
// h2ConnsPerLoop connections up to one per core, every connection in
// exactly one loop with the streams asked; open loops and the std engine
// run no loops.
func TestLeanLoopsPlan(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	tests := []struct {
		name   string
		p      transport.Protocol
		conns  int
		engine Engine
		rate   float64
		loops  int // 0: none
	}{
		{"h1 over every core", transport.H1, 50, Fast, 0, 4},
		{"h1, fewer connections than cores", transport.H1, 3, Fast, 0, 3},
		{"h2c, one loop for 10", transport.H2C, 10, Fast, 0, 1},
		{"h2c, 11 need two", transport.H2C, 11, Fast, 0, 2},
		{"h2, at most one per core", transport.H2, 100, Fast, 0, 4},
		{"open loop", transport.H2C, 10, Fast, 100, 0},
		{"std engine", transport.H2C, 10, Std, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			scheme := "http"
			if tt.p.TLS() {
				scheme = "https"
			}
			u := &url.URL{Scheme: scheme, Host: "127.0.0.1:1", Path: "/"}
			r := &run{cfg: Config{Conns: tt.conns, Streams: 7, Engine: tt.engine, Client: transport.ClientOptions{Protocol: tt.p}}, open: tt.rate > 0}
			clients := make([]connClient, tt.conns)
			for i := range clients {
				var err error
				if tt.engine.isFast() {
					clients[i], err = lean.NewClient(r.cfg.Client, lean.Request{URL: u})
				} else {
					var c *transport.Client
					c, err = transport.NewClient(r.cfg.Client)
					clients[i] = stdClient{c}
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			want := tt.loops
			if lc, ok := clients[0].(*lean.Client); ok && want > 0 && tt.p.Version() == 2 && !lc.CanShareLoop() {
				want = tt.conns // a loop per connection where loops cannot share them
			}
			loops := r.leanLoops(clients)
			if len(loops) != want {
				t.Fatalf("%d loops, want %d", len(loops), want)
			}
			conns := 0
			for _, l := range loops {
				if tt.p.Version() == 1 {
					conns += l.Streams
				} else if conns += l.Conns; l.Streams != 7 || l.Conns < 1 {
					t.Fatalf("loop %+v, want 7 streams on each of its connections", l)
				}
			}
			if tt.loops > 0 && conns != tt.conns {
				t.Fatalf("the loops drive %d connections, want %d", conns, tt.conns)
			}
		})
	}
}
