package matrix

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os/exec"
	"time"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/browser"
	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/internal/linkmodel"
	"github.com/httpvs/httpvs/internal/pagesite"
	"github.com/httpvs/httpvs/internal/protoname"
	"github.com/httpvs/httpvs/internal/serverctl"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/webpage"
)

// browserLoadCost is what a browser load costs beyond the page itself on
// this machine class: starting Chromium, attaching, stopping it.
const browserLoadCost = 1500 * time.Millisecond

// browserRun is runner's browser step: each transport's cell and the
// options it loads with.
type browserRun struct {
	r      *runner
	opts   browser.Options
	page   string // the page's URL path
	cells  []results.BrowserCell
	protos []transport.Protocol
}

// browser runs the browser's loads (Options.Browser) into r's results
// and holds them against page-load's model.
func (r *runner) browser(ctx context.Context) {
	if bo := r.opts.Browser; bo != nil {
		r.res.Browser = r.browserRounds(ctx, bo)
		// On loopback the model's page-load is the two processes' CPU,
		// with no round trip to schedule: what a browser spends beyond
		// that (its own scheduling, rendering) is all a comparison would
		// show, and it says nothing about the transports.
		analysis.CompareModel(r.res, bo.Page == nil && r.opts.onLink())
	}
}

// browserRounds loads the page in the browser, Rounds loads a transport,
// and returns each transport's cell. A browser that cannot start ends the
// step: its error is every cell's.
func (r *runner) browserRounds(ctx context.Context, bo *BrowserOptions) []results.BrowserCell {
	b := &browserRun{r: r, opts: browser.Options{Path: bo.Path, Start: bo.Start}, page: pagesite.DocumentPath}
	if b.opts.Start == nil {
		if s, ok := r.opts.Network.(interface{ Start(*exec.Cmd) error }); ok {
			b.opts.Start = s.Start
		}
	}
	page := webpage.Median()
	if bo.Page != nil {
		page = *bo.Page
	}
	trust, trustErr := r.serverSPKI(ctx)
	b.opts.TrustSPKI = trust
	objects := len(page.Objects)
	if page.Dir != "" {
		objects = 0 // what its index.html references
	}
	for _, p := range r.opts.Protocols {
		c := results.BrowserCell{Protocol: p.String(), Page: page.Source, Objects: objects}
		switch {
		case p == transport.H2C:
			c.Skipped = "browsers do not speak h2c (HTTP/2 without TLS)"
		case targetBase(r.opts.Target, p) == "":
			c.Skipped = "the target does not serve " + p.String()
		case p.TLS() && trustErr != nil:
			c.Skipped, c.Failed = trustErr.Error(), true
		default:
			b.protos = append(b.protos, p)
		}
		b.cells = append(b.cells, c)
	}
	rounds := cmpOr(bo.Rounds, defaults.BrowserRounds)
	for round := 1; round <= rounds && ctx.Err() == nil; round++ {
		if err := b.round(ctx, round); err != nil {
			b.skipAll(err)
			break
		}
	}
	for i := range b.cells {
		analysis.SummariseBrowser(&b.cells[i])
	}
	analysis.SetBrowserVerdict(b.cells)
	return b.cells
}

// cmpOr is v, or def when v is zero or less.
func cmpOr(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// round loads the page once over each transport, in turn. A browser
// that is not installed, or that exits before a page loaded, is an error
// that ends the step.
func (b *browserRun) round(ctx context.Context, round int) error {
	for _, p := range b.protos {
		if ctx.Err() != nil {
			return nil
		}
		ld, err := b.load(ctx, p)
		ld.Round = round
		var nf *browser.NotFoundError
		var ee *browser.ExitError
		if errors.As(err, &nf) || errors.As(err, &ee) {
			return err
		}
		c := b.cell(p)
		c.Loads = append(c.Loads, ld)
	}
	return nil
}

// cell is p's cell.
func (b *browserRun) cell(p transport.Protocol) *results.BrowserCell {
	for i := range b.cells {
		if b.cells[i].Protocol == p.String() {
			return &b.cells[i]
		}
	}
	panic("no browser cell for " + p.String())
}

// skipAll marks every cell not skipped yet failed, with err.
func (b *browserRun) skipAll(err error) {
	for i := range b.cells {
		if b.cells[i].Skipped == "" {
			b.cells[i].Skipped, b.cells[i].Failed = err.Error(), true
		}
	}
}

// load loads the page once over p, with the server's counters around it.
func (b *browserRun) load(ctx context.Context, p transport.Protocol) (results.BrowserLoad, error) {
	r := b.r
	opts := b.opts
	opts.Protocol = p
	if r.opts.LinkCounters != nil {
		r.opts.LinkCounters()
	}
	before, _ := r.serverStats(ctx, column{name: p.String(), proto: p}, serverctl.StatsTimeout)
	pl, err := browser.LoadPage(ctx, targetBase(r.opts.Target, p)+b.page, opts)
	after, _ := r.serverStats(ctx, column{name: p.String(), proto: p}, serverctl.StatsTimeout)
	var ld results.BrowserLoad
	if r.opts.LinkCounters != nil {
		ld.Link = newRepetitionLink(r.opts.LinkCounters())
	}
	if err != nil {
		ld.Error = err.Error()
		return ld, err
	}
	b.cell(p).Browser = pl.Browser
	ld.LoadEventSeconds, ld.LastByteSeconds = pl.LoadEvent.Seconds(), pl.LastByte.Seconds()
	ld.Objects, ld.Failed, ld.Connections = len(pl.Objects), pl.Failed(), pl.Connections()
	ld.ByTransport = map[string]int{}
	for _, o := range pl.Objects {
		if o.Failed == "" {
			ld.ByTransport[o.Transport()]++
		}
	}
	if before != nil && after != nil {
		// Counters reset during the load give no counts: they would lie.
		if d, err := after.Delta(*before); err == nil {
			serverCounts(&ld, d, p)
		}
	}
	return ld, nil
}

// serverCounts sets ld's server counts from d, the server's counters over
// the load, for p.
func serverCounts(ld *results.BrowserLoad, d stats.ServerStats, p transport.Protocol) {
	own := d.Protocols[p.String()]
	var other int64
	for name, c := range d.Protocols {
		if name != p.String() {
			other += c.Requests
		}
	}
	ld.ServerRequests, ld.ServerConnections, ld.ServerOther = &own.Requests, &own.Connections, &other
}

// serverSPKI returns the SPKI hash of the certificate the target's TLS
// port presents, for the browser to trust, when the run trusts it by
// RootCAs or Insecure rather than the system's authorities (nil then); an
// error when it cannot be had or the run would not trust it.
func (r *runner) serverSPKI(ctx context.Context) ([]string, error) {
	base := r.opts.Target.TLS
	if base == "" || (r.opts.Target.RootCAs == nil && !r.opts.Target.Insecure) {
		return nil, nil
	}
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var d net.Dialer
	conn, err := dial.TCP(ctx, r.opts.Network, &d, "tcp", u.Host)
	if err != nil {
		return nil, fmt.Errorf("the browser's certificate check: %w", err)
	}
	defer conn.Close()
	tc := tls.Client(conn, &tls.Config{ServerName: u.Hostname(), RootCAs: r.opts.Target.RootCAs, InsecureSkipVerify: r.opts.Target.Insecure, MinVersion: tls.VersionTLS12})
	if err := tc.HandshakeContext(ctx); err != nil {
		return nil, fmt.Errorf("the browser's certificate check: %w", err)
	}
	certs := tc.ConnectionState().PeerCertificates
	if len(certs) == 0 {
		return nil, errors.New("the browser's certificate check: the server sent no certificate")
	}
	return []string{browser.SPKIHash(certs[0])}, nil
}

// browserCost is what Options.Browser adds to a run, roughly.
func (o *Options) browserCost() time.Duration {
	if o.Browser == nil {
		return 0
	}
	n := 0
	for _, p := range o.Protocols {
		if p != transport.H2C {
			n++
		}
	}
	page := o.coldCost(transport.H2, false)
	if o.Link != nil {
		if b := linkmodel.PageBound(protoname.H1TLS, o.Link); b != nil {
			page = time.Duration(b.Value * float64(time.Second))
		}
	}
	return time.Duration(cmpOr(o.Browser.Rounds, defaults.BrowserRounds)*n) * (browserLoadCost + page)
}
