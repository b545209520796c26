package lean

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/internal/lean/h1"
	"github.com/httpvs/httpvs/internal/lean/h2"
	"github.com/httpvs/httpvs/internal/testenv"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
)

// TestLeanLoopBacksOff: against a port that refuses connections each
// connection slot of a loop, HTTP/1.1's or HTTP/2's, on epoll or a
// goroutine, waits between dials: at most backoff.Tries of the time per
// slot, every one a refused request handed to Done.
func TestLeanLoopBacksOff(t *testing.T) {
	ts := leanLoopServer(t, func(w http.ResponseWriter, r *http.Request) {})
	type loopCase struct {
		name      string
		p         transport.Protocol
		slots     int // Streams for h1, Conns for h2
		goroutine bool
	}
	cases := []loopCase{{"h2c goroutine", transport.H2C, 1, true}}
	if h1.LoopSupported {
		cases = append(cases, loopCase{"h1 epoll", transport.H1, 6, false})
	}
	if pollH2 {
		cases = append(cases, loopCase{"h2c epoll", transport.H2C, 3, false}, loopCase{"h2 epoll", transport.H2, 3, false})
	}
	clients := map[string]*Client{}
	for _, c := range cases {
		clients[c.name] = leanLoopClient(t, ts, c.p, "/")
	}
	plain, tls := hostOf(t, ts.URL(transport.H1)), hostOf(t, ts.URL(transport.H2))
	ts.Close()
	testenv.HoldPorts(t, plain, tls)
	defer func(was bool) { pollH2 = was }(pollH2)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pollH2 = !c.goroutine && h2.PollSupported
			lt := &loopTally{limit: 1 << 30}
			l := lt.loop(c.slots, 30*time.Second)
			if c.p.Version() == 2 {
				l.Streams, l.Conns = 2, c.slots
			}
			ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
			defer cancel()
			start := time.Now()
			if err := clients[c.name].RunLoop(ctx, l); err != nil {
				t.Fatal(err)
			}
			took := time.Since(start)
			refused := lt.kinds[stats.ErrRefused]
			if most := int64(c.slots * dial.RedialTries(took)); refused < int64(c.slots) || refused > most {
				t.Errorf("%d refused dials in %v over %d slots: want %d to %d", refused, took.Round(time.Millisecond), c.slots, c.slots, most)
			}
			if lt.ended != lt.started || lt.ok != 0 || lt.ended-refused > int64(c.slots) {
				t.Errorf("started %d, ended %d, ok %d, errors %v: want every request ended, refused but those the end cut off", lt.started, lt.ended, lt.ok, lt.kinds)
			}
		})
	}
}
