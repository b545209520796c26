package matrix

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/httpvs/httpvs/internal/bookstore"
	"github.com/httpvs/httpvs/internal/buildinfo"
	"github.com/httpvs/httpvs/internal/scenariospec"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// TargetCheckTimeout bounds each request of CheckTarget: one per
// transport, one per endpoint of httpvs's scenarios.
const TargetCheckTimeout = 5 * time.Second

// CheckTarget asks a target that is not httpvs serve, before anything is
// measured, which of o's transports it speaks and which of httpvs's own
// endpoints it has, and returns o without the transports it does not speak
// and the scenarios whose endpoint it lacks, each said once as NotRun.
// The user's own requests are kept: their failures are theirs to see. A
// transport whose check fails in any other way (a certificate not trusted,
// a connection refused) is kept too: its cells fail and say why.
func CheckTarget(ctx context.Context, o Options) (Options, []results.NotRun) {
	return checkTarget(ctx, o)
}

// checkTarget is CheckTarget with the runner's methods on its options.
func checkTarget(ctx context.Context, o Options) (Options, []results.NotRun) {
	var notRun []results.NotRun
	var spoken []transport.Protocol
	for _, p := range o.Protocols {
		if n := unspoken(ctx, o, p); n.Reason != "" {
			notRun = append(notRun, n)
			continue
		}
		spoken = append(spoken, p)
	}
	o.Protocols = spoken
	if len(spoken) == 0 {
		return o, notRun
	}
	lacking := map[string]string{} // endpoint -> why, each asked once
	var kept []Scenario
	for _, sc := range o.Scenarios {
		ep := endpointOf(sc)
		if ep.path == "" {
			kept = append(kept, sc)
			continue
		}
		key := ep.method + " " + ep.path
		why, seen := lacking[key]
		if !seen {
			why = lacks(ctx, o, spoken[0], ep)
			lacking[key] = why
		}
		if why != "" {
			notRun = append(notRun, results.NotRun{Scenario: sc.Name, Reason: why})
			continue
		}
		kept = append(kept, sc)
	}
	o.Scenarios = kept
	return o, notRun
}

// endpoint is the request that shows a target has what a scenario asks of
// httpvs serve.
type endpoint struct {
	method, path string
	body         []byte
}

// endpointOf is sc's endpoint; none for the user's own requests.
func endpointOf(sc Scenario) endpoint {
	switch {
	case spec(&sc).Req != nil:
		return endpoint{}
	case scenariospec.Of(&sc).RPC:
		return endpoint{method: http.MethodGet, path: "/v1/" + bookstore.DefaultBookName}
	case scenariospec.Transfer(sc.Metric) && scenariospec.Of(&sc).Upload:
		return endpoint{method: http.MethodPut, path: "/sink", body: make([]byte, 1024)}
	case scenariospec.Transfer(sc.Metric):
		return endpoint{method: http.MethodGet, path: "/bytes/1024"}
	case scenariospec.Of(&sc).Body > 0:
		return endpoint{method: spec(&sc).Method, path: spec(&sc).Path, body: make([]byte, 16)}
	}
	return endpoint{method: spec(&sc).Method, path: spec(&sc).Path}
}

// lacks sends ep over p and says why the target lacks it (an error
// status), or "" when it has it or the check could not tell.
func lacks(ctx context.Context, o Options, p transport.Protocol, ep endpoint) string {
	resp, err := checkRequest(ctx, o, p, ep)
	if err != nil {
		return ""
	}
	if resp.StatusCode >= 400 {
		return fmt.Sprintf("the server has no %s %s (%s over %s): not httpvs serve's endpoint", ep.method, ep.path, resp.Status, p)
	}
	return ""
}

// checkRequest sends one request of ep over p with a client of o's and
// returns its response, body read (up to 1 MiB) and closed, all within
// TargetCheckTimeout.
func checkRequest(ctx context.Context, o Options, p transport.Protocol, ep endpoint) (*http.Response, error) {
	resp, _, err := sendOnce(ctx, o, p, ep, TargetCheckTimeout, 1<<20)
	return resp, err
}

// sendOnce sends one request of ep over p with a client of o's, within
// timeout, and returns its response, up to limit bytes of its body read,
// closed, and how many bytes of it were read.
func sendOnce(ctx context.Context, o Options, p transport.Protocol, ep endpoint, timeout time.Duration, limit int64) (*http.Response, int64, error) {
	c, err := transport.NewClient(transport.ClientOptions{Protocol: p, Config: o.Client, RootCAs: o.Target.RootCAs, Insecure: o.Target.Insecure, ServerName: o.Target.ServerName, Network: o.Network})
	if err != nil {
		return nil, 0, err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var body io.Reader
	if ep.body != nil {
		body = bytes.NewReader(ep.body)
	}
	req, err := http.NewRequestWithContext(ctx, ep.method, targetBase(o.Target, p)+ep.path, body)
	if err != nil {
		return nil, 0, err
	}
	for k, vs := range o.Header {
		req.Header[k] = vs
	}
	resp, err := c.HTTP().Do(req)
	if err != nil {
		return nil, 0, err
	}
	n, err := io.Copy(io.Discard, io.LimitReader(resp.Body, limit))
	resp.Body.Close()
	return resp, n, err
}

// unspoken says, in the words users look for, that the target does not
// speak p ("h2c prior knowledge refused by this server", "no ALPN h2",
// "no QUIC on the port", a TLS handshake refused and why): p left out;
// a zero NotRun when it answered over p, when it has no base URL for p
// (the matrix says so), or when the check failed otherwise.
func unspoken(ctx context.Context, o Options, p transport.Protocol) results.NotRun {
	base := targetBase(o.Target, p)
	if base == "" {
		return results.NotRun{}
	}
	resp, err := checkRequest(ctx, o, p, endpoint{method: http.MethodGet, path: "/"})
	why := unspokenWhy(base, p, resp, err)
	if why == "" && err != nil && p.TLS() && tlsRefused(err) {
		return results.NotRun{Protocol: p.String(), Reason: tlsRefusedReason(o.Target, err), Field: "Target.ServerName"}
	}
	return results.NotRun{Protocol: p.String(), Reason: why}
}

// unspokenWhy is unspoken's reason for resp or err, checking base over
// p; "" for none.
func unspokenWhy(base string, p transport.Protocol, resp *http.Response, err error) string {
	if err == nil {
		got := transport.OfResponse(resp)
		switch {
		case got == p:
			return ""
		case p == transport.H2:
			return fmt.Sprintf("no ALPN h2: the server at %s chose %s over TLS", base, got)
		}
		return fmt.Sprintf("asked for %s, the server at %s answered over %s", p, base, got)
	}
	hostPort := base
	if u, perr := url.Parse(base); perr == nil {
		hostPort = u.Host
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED) && p != transport.H3:
		return "" // nothing listens: the cells fail and say so
	case p == transport.H2C && refusedPreface(err):
		return fmt.Sprintf("h2c prior knowledge refused by this server (%s answered the HTTP/2 preface as HTTP/1.1 or closed the connection)", hostPort)
	case p == transport.H2 && strings.Contains(err.Error(), "no application protocol"):
		return fmt.Sprintf("no ALPN h2: the server at %s refused h2 in the TLS handshake (no_application_protocol)", base)
	case p == transport.H3 && noQUIC(err):
		return fmt.Sprintf("no QUIC on the port: UDP %s did not answer a QUIC handshake within %v", hostPort, TargetCheckTimeout)
	case p.TLS() && p != transport.H3 && notTLS(err):
		return fmt.Sprintf("no TLS on %s: the server answered the TLS handshake in plain text", hostPort)
	}
	return ""
}

// refusedPreface says err is what Go's HTTP/2 client reports when a server
// that speaks only HTTP/1.1 gets the HTTP/2 connection preface.
func refusedPreface(err error) bool {
	s := err.Error()
	// Which one depends on when the server's HTTP/1.1 answer and close
	// arrive: the frame header that looked like HTTP/1.1, or the
	// connection gone before the settings were read.
	return strings.Contains(s, "looked like an HTTP/1.1 header") || strings.Contains(s, "client conn could not be established") || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || strings.Contains(s, "server sent GOAWAY") || strings.Contains(s, "unexpected EOF")
}

// noQUIC says err is a QUIC handshake that got no answer: a timeout, or an
// ICMP port unreachable.
func noQUIC(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, syscall.ECONNREFUSED) ||
		(errors.As(err, &ne) && ne.Timeout()) || strings.Contains(err.Error(), "no recent network activity")
}

// notTLS says err is a TLS handshake answered by a server speaking plain
// HTTP on the port.
func notTLS(err error) bool {
	var re tls.RecordHeaderError
	return errors.As(err, &re) || strings.Contains(err.Error(), "does not look like a TLS handshake")
}

// Unmeasured is the results of a run of o that measured nothing because
// CheckTarget left no scenario: its settings and what was not run.
func Unmeasured(o Options, notRun []results.NotRun) *results.Results {
	now := time.Now().UTC()
	return &results.Results{
		SchemaVersion: results.SchemaVersion,
		Started:       now,
		Finished:      now,
		Env:           buildinfo.CurrentEnv(),
		Settings:      o.settings(),
		NotRun:        notRun,
	}
}
