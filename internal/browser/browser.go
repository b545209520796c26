// Package browser loads a page in a real browser, headless Chromium,
// driven through the DevTools protocol (chromedp over the browser's
// --remote-debugging-pipe), and returns what the browser saw: the page's
// load time (its load event) and each object's protocol and connection as
// the browser reports them. Each load starts a browser of its own, with a
// fresh profile directory, so that no connection, cache or TLS session
// carries over from another; the browser, every process it started and
// its profile directory are gone when LoadPage returns.
package browser

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/transport"
)

// DefaultTimeout bounds a page load, from the browser's start to the
// page's last object, when Options.Timeout is zero: 60 s.
const DefaultTimeout = time.Minute

// Options say which browser loads the page, over what, from where. The
// zero value loads an http:// URL over HTTP/1.1 with the first of
// Executables on PATH, from this process's network, within DefaultTimeout.
type Options struct {
	// Path is the browser's executable (Chromium or Chrome); empty means
	// the first of Executables found on PATH.
	Path string
	// Protocol is the one transport the browser may use: H1 (the zero
	// value: an http:// URL, HTTP/1.1), H1TLS (HTTP/2 turned off, so ALPN
	// offers http/1.1 alone), H2 (ALPN, a browser's default) or H3 (QUIC
	// forced on the URL's origin, with no Alt-Svc round trip). H2C is
	// refused: browsers do not speak HTTP/2 without TLS.
	Protocol transport.Protocol
	// TrustSPKI lists certificates the browser trusts though no authority
	// signed them (a self-signed server's), each as SPKIHash gives it;
	// nil trusts the system's authorities alone.
	TrustSPKI []string
	// Start starts the browser's command, and where it runs is where its
	// network is: netem's Namespace.Start runs it inside an emulated
	// link's client namespace. It is called from a goroutine that waits
	// for the browser afterwards; its thread must outlive the browser,
	// whose Pdeathsig is SIGKILL. Nil means cmd.Start from a thread held
	// until the browser exits.
	Start func(cmd *exec.Cmd) error
	// Timeout bounds the load, from the browser's start to the page's
	// last object; zero means DefaultTimeout.
	Timeout time.Duration
}

// SPKIHash is cert's SubjectPublicKeyInfo's SHA-256, base64: the form
// Options.TrustSPKI takes (Chromium's
// --ignore-certificate-errors-spki-list).
func SPKIHash(cert *x509.Certificate) string {
	sum := sha256.Sum256(cert.RawSubjectPublicKeyInfo)
	return base64.StdEncoding.EncodeToString(sum[:])
}

// PageLoad is one load of a page, as the browser saw it.
type PageLoad struct {
	// URL is the page's URL.
	URL string `json:"url"`
	// Browser is the browser's product and version ("Chrome/156.0...").
	Browser string `json:"browser"`
	// LoadEvent is the time from the navigation's start to the page's
	// load event (Navigation Timing's loadEventStart).
	LoadEvent time.Duration `json:"load_event"`
	// LastByte is the time from the document's request to the last
	// object's last byte: page-load's figure, which a load event can
	// precede when an object does not delay it.
	LastByte time.Duration `json:"last_byte"`
	// Objects are the page's requests in the order the browser made them,
	// the document first.
	Objects []Object `json:"objects"`
}

// Object is one request of a page load, as the browser's Network domain
// reported it.
type Object struct {
	URL string `json:"url"`
	// Protocol is what the browser says the response came over
	// (response.protocol): "http/1.1", "h2" or "h3"; "" when no response
	// came. Transport gives httpvs's name.
	Protocol string `json:"protocol"`
	// Connection is the browser's id of the connection the response came
	// over (response.connectionId): objects of one connection share it.
	Connection int64 `json:"connection"`
	// Status is the response's HTTP status; 0 when none came.
	Status int `json:"status"`
	// Bytes are the bytes received for it, headers and framing included
	// (loadingFinished's encodedDataLength).
	Bytes int64 `json:"bytes"`
	// Finished is the time from the document's request to its last byte;
	// zero when it failed.
	Finished time.Duration `json:"finished"`
	// Failed is the browser's error ("net::ERR_CONNECTION_REFUSED"); ""
	// when it loaded.
	Failed string `json:"failed,omitempty"`
}

// Chrome's words for a response's protocol (the DevTools protocol's
// Network.Response.protocol): ALPN-like tokens, not httpvs's names, which
// happen to share "h2" and "h3".
const (
	chromeHTTP10     = "http/1.0"
	chromeHTTP11     = "http/1.1"
	chromeH2         = "h2"
	chromeH3         = "h3"
	chromeH3Draft    = "h3-" // prefix of draft versions: h3-29
	chromeGoogleQUIC = "http/2+quic/43"
)

// Transport is httpvs's name for the transport o came over: h1 or h1-tls
// (by the URL's scheme) for "http/1.1", h2, h3; the browser's own word
// for anything else, "" when no response came.
func (o Object) Transport() string {
	switch p := strings.ToLower(o.Protocol); {
	case p == chromeHTTP11 || p == chromeHTTP10:
		if strings.HasPrefix(o.URL, "https:") {
			return transport.H1TLS.String()
		}
		return transport.H1.String()
	case p == chromeH2:
		return transport.H2.String()
	case p == chromeH3 || strings.HasPrefix(p, chromeH3Draft) || p == chromeGoogleQUIC:
		return transport.H3.String()
	default:
		return p
	}
}

// Connections is how many connections the page's responses came over, by
// the browser's connection ids.
func (l *PageLoad) Connections() int {
	seen := map[int64]bool{}
	for _, o := range l.Objects {
		if o.Status != 0 {
			seen[o.Connection] = true
		}
	}
	return len(seen)
}

// Failed is how many of the page's requests failed.
func (l *PageLoad) Failed() int {
	n := 0
	for _, o := range l.Objects {
		if o.Failed != "" {
			n++
		}
	}
	return n
}

// LoadPage loads the page at rawURL in a browser of its own, over
// opts.Protocol alone, and returns what the browser saw. The page has
// loaded when its load event has fired and each request it made has
// finished or failed; a request that failed is in Objects with its error,
// not an error of LoadPage's. A browser that is not installed is a
// *NotFoundError, one that exits before the page loaded an *ExitError.
func LoadPage(ctx context.Context, rawURL string, opts Options) (load *PageLoad, err error) {
	args, err := opts.args(rawURL)
	if err != nil {
		return nil, err
	}
	path, err := Find(opts.Path)
	if err != nil {
		return nil, err
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	p, err := launch(path, args, opts.Start)
	if err != nil {
		return nil, err
	}
	defer func() {
		if serr := p.stop(); serr != nil && err == nil {
			load, err = nil, serr
		}
	}()
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	load, err = drive(ctx, p, rawURL)
	switch {
	case err == nil:
		return load, nil
	case parent.Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, fmt.Errorf("the browser did not load %s within %v: %w", rawURL, timeout, err)
	}
	return nil, p.crashed(ctx, err)
}

// drive loads rawURL in the browser p and collects its events.
func drive(ctx context.Context, p *process, rawURL string) (*PageLoad, error) {
	quiet := func(string, ...any) {}
	actx, cancelAlloc := chromedp.NewAllocatorContext(ctx, pipeAllocator{p})
	defer cancelAlloc()
	cctx, cancelTab := chromedp.NewContext(actx, chromedp.WithLogf(quiet), chromedp.WithErrorf(quiet))
	defer cancelTab()
	rec := newRecorder()
	// Listen starts the browser's session and attaches to its first tab.
	if err := chromedp.Listen(cctx, rec.event); err != nil {
		return nil, fmt.Errorf("attach to the browser: %w", err)
	}
	version, err := chromedp.CallBrowser(cctx, cdpbrowser.GetVersion, cdp.Empty{})
	if err != nil {
		return nil, fmt.Errorf("browser version: %w", err)
	}
	if err := chromedp.Do(cctx, chromedp.Navigate(rawURL)); err != nil {
		return nil, fmt.Errorf("load %s: %w", rawURL, err)
	}
	if err := rec.settle(cctx); err != nil {
		return nil, fmt.Errorf("load %s: %w", rawURL, err)
	}
	nav, err := chromedp.Run(cctx, chromedp.Evaluate[navTiming](navTimingJS))
	if err != nil {
		return nil, fmt.Errorf("navigation timing of %s: %w", rawURL, err)
	}
	load := rec.result(rawURL)
	load.Browser = version.Product
	load.LoadEvent = time.Duration(nav.LoadEventStart * float64(time.Millisecond))
	return load, nil
}

// navTiming is the part of the page's Navigation Timing entry LoadPage
// reads, milliseconds from the navigation's start.
type navTiming struct {
	LoadEventStart float64 `json:"loadEventStart"`
}

const navTimingJS = `(() => { const n = performance.getEntriesByType("navigation")[0]; return {loadEventStart: n ? n.loadEventStart : 0}; })()`

// pipeAllocator hands chromedp the browser launch started, over its
// DevTools pipe.
type pipeAllocator struct{ p *process }

func (a pipeAllocator) Allocate(ctx context.Context, opts ...chromedp.BrowserOption) (*chromedp.Browser, error) {
	return chromedp.NewBrowserTransport(ctx, a.p.conn, opts...)
}

func (a pipeAllocator) Wait() {}

// args are the browser's flags for a load of rawURL over o.Protocol.
func (o Options) args(rawURL string) ([]string, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("page URL %q: want http://host:port/path or https://host:port/path", rawURL)
	}
	want := "https"
	switch o.Protocol {
	case transport.H1:
		want = "http"
	case transport.H2C:
		return nil, errors.New("a browser does not speak h2c (HTTP/2 without TLS): use h1, h1-tls, h2 or h3")
	case transport.H1TLS, transport.H2, transport.H3:
	default:
		return nil, fmt.Errorf("browser protocol %v: want h1, h1-tls, h2 or h3", o.Protocol)
	}
	if u.Scheme != want {
		return nil, fmt.Errorf("a browser over %s loads %s:// URLs, not %s", o.Protocol, want, rawURL)
	}
	args := append([]string(nil), baseArgs...)
	if os.Geteuid() == 0 {
		// Chromium refuses to run as root with its sandbox on.
		args = append(args, "--no-sandbox")
	}
	switch o.Protocol {
	case transport.H1TLS:
		args = append(args, "--disable-http2", "--disable-quic")
	case transport.H2:
		args = append(args, "--disable-quic")
	case transport.H3:
		args = append(args, "--enable-quic", "--origin-to-force-quic-on="+dial.HostPort(u))
	default:
		args = append(args, "--disable-quic")
	}
	if len(o.TrustSPKI) > 0 {
		args = append(args, "--ignore-certificate-errors-spki-list="+strings.Join(o.TrustSPKI, ","))
	}
	return args, nil
}

// baseArgs run the browser headless, with nothing of its own on the
// network (no updates, sync, metrics, proxy or safe-browsing lists: its
// only traffic is the page's) and nothing from a previous run.
var baseArgs = []string{
	"--headless",
	"--disable-gpu",
	"--no-first-run",
	"--no-default-browser-check",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-default-apps",
	"--disable-extensions",
	"--disable-breakpad",
	"--disable-domain-reliability",
	"--disable-client-side-phishing-detection",
	"--disable-features=Translate,OptimizationHints,MediaRouter,HttpsUpgrades,InterestFeedContentSuggestions",
	"--metrics-recording-only",
	"--no-proxy-server",
	"--no-pings",
	"--password-store=basic",
	"--use-mock-keychain",
	"--mute-audio",
	"--hide-scrollbars",
}
