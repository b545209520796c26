package tune

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transfer"
	"github.com/httpvs/httpvs/transfer/transferresult"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/tune/tuneresult"
	"github.com/httpvs/httpvs/units"
)

// bench holds the in-process servers, one per server write size.
type bench struct {
	opts    Options
	servers map[units.Bytes]*server.Running
	// spent and measured time each transport's measure calls so far: their
	// mean is what the search reserves per measurement still to come.
	spent    map[transport.Protocol]time.Duration
	measured map[transport.Protocol]int
}

// perMeasure is the mean time a measure call over p has taken (Trial
// before the first): a trial plus a new connection, for h3 under CPU
// starvation several trials.
func (b *bench) perMeasure(p transport.Protocol) time.Duration {
	if b.measured[p] == 0 {
		return b.opts.Trial
	}
	return b.spent[p] / time.Duration(b.measured[p])
}

// reserve is the time a candidate pair over p and the final measurements
// (finalRounds times h1, the default and the best) are expected to take.
// Until h1 has been measured (the first search's finals) an h1
// measurement is expected to take as long as one over p: a trial alone
// (Trial) leaves out the connection and, on a loaded machine, most of it.
func (b *bench) reserve(p transport.Protocol) time.Duration {
	h1 := b.perMeasure(transport.H1)
	if b.measured[transport.H1] == 0 {
		h1 = b.perMeasure(p)
	}
	return time.Duration(2+2*finalRounds)*b.perMeasure(p) + finalRounds*h1
}

func (b *bench) close() {
	for _, ts := range b.servers {
		ts.Close()
	}
}

func (b *bench) server(write units.Bytes) (*transport.Server, error) {
	if srv, ok := b.servers[write]; ok {
		return srv.Transport, nil
	}
	host, where := "127.0.0.1", transport.Network(nil)
	if l := b.opts.Link; l != nil {
		host, where = l.Host, l.Server
	}
	addr := net.JoinHostPort(host, "0")
	var srv *server.Running
	err := dial.In(where, func() (err error) {
		srv, err = server.Start(server.Config{
			Options:   server.Options{WriteSize: int(write)},
			Transport: transport.ServerOptions{Listen: addr, TLSListen: addr},
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("tune: start server: %w", err)
	}
	b.servers[write] = srv
	return srv.Transport, nil
}

// measure downloads over p with s for one trial and returns the rate in
// bytes per second.
func (b *bench) measure(ctx context.Context, p transport.Protocol, s tuneresult.Settings) (float64, transferresult.Result, error) {
	if b.opts.Progress != nil {
		b.opts.Progress(p.String(), s)
	}
	began := time.Now()
	defer func() { b.spent[p] += time.Since(began); b.measured[p]++ }()
	ts, err := b.server(s.WriteSize)
	if err != nil {
		return 0, transferresult.Result{}, err
	}
	client := transport.ClientOptions{Protocol: p, Config: clientConfig(s), RootCAs: transport.CertPool(ts.Cert())}
	if b.opts.Link != nil {
		client.Network = b.opts.Link.Client
	}
	var res transferresult.Result
	// A trial shorter than the handshake (h3 under -race, a loaded
	// machine) moves nothing: give it up to 16 times as long.
	for trial := b.opts.Trial; ; trial *= 4 {
		res, err = transfer.Run(ctx, transfer.Plan{
			URL:       ts.URL(p) + "/bytes/1t",
			Transfers: 1,
			Client:    client,
			Timeout:   trial,
		})
		if err != nil {
			return 0, res, err
		}
		if res.Bytes > 0 || ctx.Err() != nil || trial >= 16*b.opts.Trial {
			break
		}
	}
	if res.Bytes == 0 {
		// Nothing moved: a failure, not a slow configuration.
		if ctx.Err() != nil {
			return 0, res, fmt.Errorf("tune: %s download: %w", p, errCutOff)
		}
		return 0, res, fmt.Errorf("tune: %s download moved nothing in %v: %s", p, 16*b.opts.Trial, res.FirstError)
	}
	return float64(res.Bytes) / res.Seconds, res, nil
}
