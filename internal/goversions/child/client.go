package main

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// Round asks the client for one measurement.
type Round struct {
	Scenario string `json:"scenario"` // download or small-sequential
	Protocol string `json:"protocol"` // h1, h2c, h1-tls or h2
	URL      string `json:"url"`      // the server's base URL for Protocol
	CertPEM  string `json:"cert"`     // TLS protocols: the certificate to trust
	// Size is download's body size in bytes.
	Size int64 `json:"size"`
	// Duration is small-sequential's measured time, Warmup the unmeasured
	// time before it, in nanoseconds.
	Duration time.Duration `json:"duration"`
	Warmup   time.Duration `json:"warmup"`
	// Timeout bounds each request, in nanoseconds; zero: one minute.
	Timeout time.Duration `json:"timeout"`
}

// Result is one Round's outcome.
type Result struct {
	Value    float64 `json:"value"`    // download: bytes per second; small-sequential: requests per second
	Seconds  float64 `json:"seconds"`  // measured wall time
	Bytes    int64   `json:"bytes"`    // response body bytes read
	Requests int64   `json:"requests"` // requests completed, failed ones included
	Errors   int64   `json:"errors"`   // requests that failed
	// FirstError is the first failure's text; Problem says why the round
	// could not run at all.
	FirstError string `json:"first_error,omitempty"`
	Problem    string `json:"problem,omitempty"`
	Negotiated string `json:"negotiated,omitempty"` // the protocol responses came over: HTTP/1.1 or HTTP/2.0
}

// clients holds one http.Client per protocol, kept across rounds so that
// connections stay warm as in a long-running program.
type clients struct {
	byProto map[string]*http.Client
}

func newClients() *clients { return &clients{byProto: map[string]*http.Client{}} }

func (c *clients) close() {
	for _, cl := range c.byProto {
		cl.CloseIdleConnections()
	}
}

// The transports' names, as httpvs's package transport spells them
// (internal/protoname). This program is built by other Go toolchains as a
// module of its own (go.mod.txt), so it cannot import them; a test of
// package goversions holds these to transport's.
const (
	protoH1    = "h1"
	protoH2C   = "h2c"
	protoH1TLS = "h1-tls"
	protoH2    = "h2"
)

// client returns the client for r.Protocol, made on first use: Go's
// transports as shipped, with the server's certificate trusted for TLS.
func (c *clients) client(r Round) (*http.Client, error) {
	if cl, ok := c.byProto[r.Protocol]; ok {
		return cl, nil
	}
	var rt http.RoundTripper
	switch r.Protocol {
	case protoH1:
		rt = &http.Transport{}
	case protoH2C:
		rt = h2cTransport()
	case protoH1TLS, protoH2:
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM([]byte(r.CertPEM)) {
			return nil, fmt.Errorf("%s: no certificate to trust", r.Protocol)
		}
		// A TLS config of one's own turns HTTP/2 off unless asked for.
		rt = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: r.Protocol == protoH2}
	default:
		return nil, fmt.Errorf("unknown protocol %q", r.Protocol)
	}
	cl := &http.Client{Transport: rt}
	c.byProto[r.Protocol] = cl
	return cl, nil
}

// wantMajor is the HTTP major version each protocol's responses carry.
var wantMajor = map[string]int{protoH1: 1, protoH1TLS: 1, protoH2C: 2, protoH2: 2}

// run runs one round.
func (c *clients) run(r Round) Result {
	cl, err := c.client(r)
	if err != nil {
		return Result{Problem: err.Error()}
	}
	if r.Timeout <= 0 {
		r.Timeout = time.Minute
	}
	cl.Timeout = r.Timeout
	switch r.Scenario {
	case "download":
		return download(cl, r)
	case "small-sequential":
		return smallSequential(cl, r)
	}
	return Result{Problem: fmt.Sprintf("unknown scenario %q", r.Scenario)}
}

// get GETs url, reads the body to its end with io.Copy(io.Discard, ...)
// and checks the status, the protocol and that want bytes came.
func get(cl *http.Client, r Round, path string, want int64, res *Result) {
	res.Requests++
	n, err := getOnce(cl, r, path, want, res)
	res.Bytes += n
	if err != nil {
		res.Errors++
		if res.FirstError == "" {
			res.FirstError = err.Error()
		}
	}
}

func getOnce(cl *http.Client, r Round, path string, want int64, res *Result) (int64, error) {
	resp, err := cl.Get(r.URL + path)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	res.Negotiated = resp.Proto
	switch {
	case err != nil:
		return n, fmt.Errorf("GET %s: after %d bytes: %w", path, n, err)
	case resp.StatusCode != http.StatusOK:
		return n, fmt.Errorf("GET %s: %s", path, resp.Status)
	case resp.ProtoMajor != wantMajor[r.Protocol]:
		return n, fmt.Errorf("GET %s over %s came over %s", path, r.Protocol, resp.Proto)
	case n != want:
		return n, fmt.Errorf("GET %s: %d bytes, want %d", path, n, want)
	}
	return n, nil
}

// download is one GET of /bytes/{Size}: bytes per second.
func download(cl *http.Client, r Round) Result {
	var res Result
	start := time.Now()
	get(cl, r, "/bytes/"+strconv.FormatInt(r.Size, 10), r.Size, &res)
	res.Seconds = time.Since(start).Seconds()
	if res.Errors == 0 && res.Seconds > 0 {
		res.Value = float64(res.Bytes) / res.Seconds
	}
	return res
}

// smallSequential GETs /small one request at a time for Warmup, then
// counts them for Duration: requests per second.
func smallSequential(cl *http.Client, r Round) Result {
	if r.Duration <= 0 {
		return Result{Problem: "small-sequential needs a duration"}
	}
	var warm Result
	for end := time.Now().Add(r.Warmup); time.Now().Before(end); {
		get(cl, r, "/small", 2, &warm)
	}
	var res Result
	start := time.Now()
	for end := start.Add(r.Duration); time.Now().Before(end); {
		get(cl, r, "/small", 2, &res)
	}
	res.Seconds = time.Since(start).Seconds()
	if res.Seconds > 0 {
		res.Value = float64(res.Requests-res.Errors) / res.Seconds
	}
	return res
}
