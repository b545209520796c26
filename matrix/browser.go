package matrix

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/httpvs/httpvs/browser"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transfer"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/webpage"
)

// BrowserScenario is the name the real browser's page loads go by
// (Results.Browser), beside page-load, the model they are held to.
const BrowserScenario = "browser-page-load"

// DefaultBrowserRounds is how many loads each transport gets in the
// browser when BrowserOptions.Rounds is zero.
const DefaultBrowserRounds = 5

// browserLoadCost is what a browser load costs beyond the page itself on
// this machine class: starting Chromium, attaching, stopping it.
const browserLoadCost = 1500 * time.Millisecond

// BrowserOptions ask Run to load the target's page (GET /page/, httpvs
// serve's) in a real browser too, after the cells, over each transport a
// browser speaks (h1, h1-tls, h2, h3; not h2c), with a fresh browser for
// each load, and to hold each transport's load times against page-load's
// model (Results.Browser). The zero value runs the first browser.Find
// finds, DefaultBrowserRounds loads a transport, where the run's client
// is.
type BrowserOptions struct {
	// Path is the browser's executable; empty means browser.Find's.
	Path string
	// Rounds is how many loads each transport gets, the transports in
	// turn each round; zero means DefaultBrowserRounds.
	Rounds int
	// Start starts each browser's process in the run's client network:
	// nil means Options.Network's own Start method when it has one (an
	// emulated link's client namespace has), else this process's network.
	Start func(cmd *exec.Cmd) error
	// Page is the page the target serves, when it is not page-load's
	// (httpvs serve --page); nil means page-load's page, webpage.Median.
	// A browser loading another page than the model's is not compared
	// with it.
	Page *webpage.Page
}

// BrowserCell is one transport's page loads in the browser.
type BrowserCell struct {
	Protocol string `json:"protocol"`
	// Page says which page was loaded (webpage.Page's Source).
	Page string `json:"page"`
	// Browser is the browser's product and version.
	Browser string `json:"browser,omitempty"`
	// Skipped says why the transport was not loaded; "" when it was.
	Skipped string `json:"skipped,omitempty"`
	// Failed says the transport was skipped because the browser could not
	// load over it (it is not installed, it exited, the certificate check
	// failed), not because browsers or the target do not speak it.
	Failed bool `json:"failed,omitempty"`
	// Objects is how many objects the page has; 0 when unknown (a
	// directory page: the browser fetches what its index.html references).
	Objects int `json:"objects"`
	// LoadEvent is the load-event time over the loads that completed,
	// seconds: their geometric mean with its 95% interval.
	LoadEvent Spread `json:"load_event_seconds"`
	// LastByte is the time to the last object's last byte, seconds (the
	// model's figure), the same way.
	LastByte Spread `json:"last_byte_seconds"`
	// Model holds LoadEvent against page-load's cell over the same
	// transport; nil when the run has none or the page is not the model's.
	Model *ModelCheck `json:"model,omitempty"`
	// Disagrees says how the browser's loads disagreed with the transport
	// asked for or with the server's own counters (objects, connections,
	// transports); "" when every load agreed.
	Disagrees string        `json:"disagrees,omitempty"`
	Loads     []BrowserLoad `json:"loads"`
}

// BrowserLoad is one load of the page in the browser.
type BrowserLoad struct {
	Round            int     `json:"round"`
	LoadEventSeconds float64 `json:"load_event_seconds"` // navigation start to the load event
	LastByteSeconds  float64 `json:"last_byte_seconds"`  // document request to the last object's last byte
	// Objects is the requests the browser made, Failed those that failed.
	Objects int `json:"objects"`
	Failed  int `json:"failed"`
	// ByTransport counts the objects by the transport the browser says
	// each came over (httpvs's names; the browser's own for others).
	ByTransport map[string]int `json:"by_transport"`
	// Connections is how many connections the browser says the objects
	// came over (distinct connection ids).
	Connections int `json:"connections"`
	// ServerRequests and ServerConnections are the server's counts for
	// the transport over the load (its /stats); ServerOther its requests
	// over other transports. Nil when the counters were unavailable.
	ServerRequests    *int64 `json:"server_requests,omitempty"`
	ServerConnections *int64 `json:"server_connections,omitempty"`
	ServerOther       *int64 `json:"server_other_requests,omitempty"`
	// Link is what the emulated link did over the load; nil without one.
	Link *RepetitionLink `json:"link,omitempty"`
	// Error says why the load did not complete; "" when it did.
	Error string `json:"error,omitempty"`
}

// browserRun is runner's browser step: each transport's cell and the
// options it loads with.
type browserRun struct {
	r      *runner
	opts   browser.Options
	page   string // the page's URL path
	cells  []BrowserCell
	protos []transport.Protocol
}

// browser runs the browser's loads (Options.Browser) into r's results
// and holds them against page-load's model.
func (r *runner) browser(ctx context.Context) {
	if bo := r.opts.Browser; bo != nil {
		r.res.Browser = r.browserRounds(ctx, bo)
		compareModel(r.res, bo.Page == nil)
	}
}

// browserRounds loads the page in the browser, Rounds loads a transport,
// and returns each transport's cell. A browser that cannot start ends the
// step: its error is every cell's.
func (r *runner) browserRounds(ctx context.Context, bo *BrowserOptions) []BrowserCell {
	b := &browserRun{r: r, opts: browser.Options{Path: bo.Path, Start: bo.Start}, page: webpage.DocumentPath}
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
		c := BrowserCell{Protocol: p.String(), Page: page.Source, Objects: objects}
		switch {
		case p == transport.H2C:
			c.Skipped = "browsers do not speak h2c (HTTP/2 without TLS)"
		case r.opts.Target.base(p) == "":
			c.Skipped = "the target does not serve " + p.String()
		case p.TLS() && trustErr != nil:
			c.Skipped, c.Failed = trustErr.Error(), true
		default:
			b.protos = append(b.protos, p)
		}
		b.cells = append(b.cells, c)
	}
	rounds := cmpOr(bo.Rounds, DefaultBrowserRounds)
	for round := 1; round <= rounds && ctx.Err() == nil; round++ {
		if err := b.round(ctx, round); err != nil {
			b.skipAll(err)
			break
		}
	}
	for i := range b.cells {
		b.cells[i].summarise()
	}
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
func (b *browserRun) cell(p transport.Protocol) *BrowserCell {
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
func (b *browserRun) load(ctx context.Context, p transport.Protocol) (BrowserLoad, error) {
	r := b.r
	opts := b.opts
	opts.Protocol = p
	if r.opts.LinkCounters != nil {
		r.opts.LinkCounters()
	}
	before, _ := r.serverStats(ctx, transfer.StatsTimeout)
	pl, err := browser.LoadPage(ctx, r.opts.Target.base(p)+b.page, opts)
	after, _ := r.serverStats(ctx, transfer.StatsTimeout)
	var ld BrowserLoad
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
		ld.serverCounts(after.Sub(*before), p)
	}
	return ld, nil
}

// serverCounts sets ld's server counts from d, the server's counters over
// the load, for p.
func (ld *BrowserLoad) serverCounts(d stats.ServerStats, p transport.Protocol) {
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
	conn, err := transport.DialIn(ctx, r.opts.Network, &d, "tcp", u.Host)
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

// disagreements says how ld disagreed with p, the page's objects and the
// server's counters; nil when it agreed throughout.
func (ld *BrowserLoad) disagreements(p string, objects int) []string {
	var out []string
	if ld.Error != "" {
		return nil
	}
	if (objects > 0 && ld.Objects != objects) || ld.Failed > 0 {
		out = append(out, fmt.Sprintf("%d objects requested, %d failed (the page has %d)", ld.Objects, ld.Failed, objects))
	}
	var others []string
	for t, n := range ld.ByTransport {
		if t != p {
			others = append(others, fmt.Sprintf("%d over %s", n, t))
		}
	}
	if len(others) > 0 {
		slices.Sort(others)
		out = append(out, "objects "+strings.Join(others, ", "))
	}
	if ld.ServerRequests != nil {
		if got := int64(ld.ByTransport[p]); *ld.ServerRequests != got {
			out = append(out, fmt.Sprintf("the server counted %d requests over %s, the browser %d", *ld.ServerRequests, p, got))
		}
		if *ld.ServerConnections != int64(ld.Connections) {
			out = append(out, fmt.Sprintf("the server counted %d connections, the browser %d", *ld.ServerConnections, ld.Connections))
		}
		if *ld.ServerOther > 0 {
			out = append(out, fmt.Sprintf("the server counted %d requests over other transports", *ld.ServerOther))
		}
	}
	return out
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
		if b := pageBound("h1-tls", o.Link); b != nil {
			page = time.Duration(b.Value * float64(time.Second))
		}
	}
	return time.Duration(cmpOr(o.Browser.Rounds, DefaultBrowserRounds)*n) * (browserLoadCost + page)
}
