// Package load is httpvs's load generator: many requests over one
// transport, in a closed loop (connections x streams, each sending its next
// request when the last one ends) or an open loop (a fixed rate, latency
// measured from each request's intended send time, as wrk2 does, so a slow
// server cannot hide its queueing). Workers keep their own counters and
// histograms, merged at the end; failures are counted by kind, never dropped.
package load

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/internal/fielderr"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

const (
	// lateThreshold is how far past its intended send time an open-loop
	// request must start to count as late (loadresult.Schedule.Late).
	lateThreshold = defaults.LateThreshold
)

// Config describes one load run. Every run is bounded: by Requests and
// MaxDuration, or by Duration.
type Config struct {
	// URL is the target, e.g. http://127.0.0.1:8080/small.
	URL string
	// Client says the transport and its tuning; a zero ReadSize means
	// 64 KiB with the fast engine, Go's as shipped with std.
	Client transport.ClientOptions
	// Conns is the number of connections (-c); at least 1.
	Conns int
	// Streams is the number of concurrent requests per connection (-m);
	// above 1 only for HTTP/2 and HTTP/3.
	Streams int
	// Requests is the number of measured requests (-n); zero means run for
	// Duration instead.
	Requests int64
	// Duration is the measured time when Requests is zero; zero means
	// 10 s.
	Duration time.Duration
	// Warmup runs before measuring; its requests are not counted. A
	// closed loop's std engine warms up past it until each worker has
	// finished a request (its connection is up), at most another Warmup;
	// an open loop's is longer by the intervals it takes to hand every
	// connection its first request (Conns-1 of them, at Rate), so that
	// no connection is set up in the measured window.
	Warmup time.Duration
	// StartAt, if not zero, is the wall-clock time the run begins (its
	// warmup, then its measured phase): Run prepares its clients, then
	// waits until StartAt, so that generators on several machines start
	// together (their clocks as close as NTP keeps them). A StartAt already
	// past when the clients are ready starts at once; the result's
	// Started says when measuring really began. Cancelling ctx ends the
	// wait with an error.
	StartAt time.Time
	// Share, if not zero, runs one part of Requests and Rate, which are the
	// whole load's: Share.Requests(Requests) requests at Share.Rate(Rate).
	// Conns, Streams and Duration are this generator's own. A share of a
	// closed loop run for a duration is refused: there is nothing to split.
	Share Share
	// Rate, in requests per second, makes the loop open; zero means closed.
	// An open loop's latency is from each request's intended send time.
	// By Duration, it sends the requests due in that window and waits for
	// them all, those still queued included, at most RequestTimeout more:
	// its rates are over the window and that wait.
	Rate float64
	// Method is the request method; empty means GET.
	Method string
	// BodySize is the request body size in bytes; zero sends none.
	BodySize units.Bytes
	// Body, if not nil, is each request's body (a file's contents, say)
	// instead of BodySize bytes of a pattern; BodySize must be its length.
	Body []byte
	// Headers adds Count headers of Len characters to each request.
	Headers HeaderSpec
	// Header holds more headers sent with every request, beside Headers'.
	Header http.Header
	// RequestTimeout bounds each request; zero means 30 s.
	RequestTimeout time.Duration
	// MaxDuration bounds a run by count; zero means 10 minutes.
	MaxDuration time.Duration
	// Engine is the client that makes the requests: Std (the zero value)
	// or Fast, which must speak Client.Protocol (it speaks all five).
	Engine Engine
	// Progress, if set, is called at most twice a second while measuring.
	Progress func(Progress)
	// MeasureStart, if set, is called once when the warmup ends, before the
	// measured phase's first figures are read: a caller reads the server's
	// counters there so that they cover the same phase. With a warmup, a
	// closed loop's measured phase begins when it returns (however long the
	// read takes on a loaded machine); the end stays Warmup+Duration after
	// the start.
	MeasureStart func()
	// NewCaller, if set, replaces HTTP requests with calls of another
	// stack (gRPC): each connection slot gets its own Caller, and each
	// request is one Call. URL and Client.Protocol then only label the
	// result; Method, BodySize, Headers and Engine are unused.
	NewCaller func() (Caller, error)
	// CallerName names the stack NewCaller calls, e.g. "grpc-go"; results
	// record it as their engine.
	CallerName string
	// MeasureEnd, if set, is called once when the measured phase ends (its
	// time is up, with an open loop's wait, or the last request is done),
	// before the requests it cut off are abandoned, with the count of requests that failed in the
	// phase (a caller can keep its own probes short when the server looks
	// gone). It is called after MeasureStart, even when an interrupt
	// skipped that.
	MeasureEnd func(failed int64)
}

// Progress is a live view of a run.
type Progress struct {
	Elapsed           time.Duration // since measuring started
	Done              int64         // requests completed, failed ones included
	Errors            int64         // failed requests
	RequestsPerSecond float64       // successful requests per second over the last interval
}

// Caller makes requests of a stack load does not speak itself.
type Caller interface {
	// Call makes one request and returns the payload bytes received and
	// sent; err is nil only for a successful response.
	Call(ctx context.Context) (received, sent int64, err error)
	// Connections returns how many connections the caller has opened.
	Connections() int64
	// Close releases the caller's connections.
	Close() error
}

// HeaderSpec is N headers of LEN characters each, written N:LEN.
type HeaderSpec struct {
	Count int // number of headers
	Len   int // characters in each value
}

// String returns "N:LEN", or "" for none.
func (h HeaderSpec) String() string {
	if h.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d:%d", h.Count, h.Len)
}

// header returns the headers h describes: X-Httpvs-0000 and on, each
// value Len characters.
func (h HeaderSpec) header() http.Header {
	header := make(http.Header, h.Count)
	if h.Count > 0 {
		value := strings.Repeat("v", h.Len)
		for i := 0; i < h.Count; i++ {
			header[fmt.Sprintf("X-Httpvs-%04d", i)] = []string{value}
		}
	}
	return header
}

// bodyWant says what BodySize should be, or "" when it is right.
func bodyWant(c Config) string {
	switch {
	case c.BodySize < 0 || c.BodySize > units.GiB:
		return "0 to 1Gi"
	case c.Body != nil && int64(len(c.Body)) != int64(c.BodySize):
		return fmt.Sprintf("the length of Body, %d", len(c.Body))
	}
	return ""
}

// Validate reports the first field of c out of range as a
// *config.FieldError (client tuning under "Client."), and a URL that
// does not fit the transport as a *transport.SchemeError.
func (c Config) Validate() error {
	_, err := c.validate()
	return err
}

// validate checks c and returns the parsed URL.
func (c Config) validate() (*url.URL, error) {
	u, err := c.Client.Protocol.ParseURL(c.URL)
	if err != nil {
		return nil, err
	}
	if err := c.checkCounts(); err != nil {
		return nil, err
	}
	if err := c.checkDurations(); err != nil {
		return nil, err
	}
	if err := c.checkRate(); err != nil {
		return nil, err
	}
	switch {
	case c.Method != "" && !isToken(c.Method):
		// Checked for every engine: the fast one writes the method into
		// the request line as it is, so CR LF in it would smuggle a
		// second request.
		return nil, fielderr.New("Method", strconv.Quote(c.Method), "a method token (RFC 9110 section 9.1: letters, digits and !#$%%&'*+-.^_`|~), e.g. GET or POST")
	case c.NewCaller == nil && !slices.Contains(transport.All, c.Client.Protocol):
		// Both engines speak every transport there is.
		return nil, fielderr.New("Client.Protocol", int(c.Client.Protocol), "h1, h2c, h1-tls, h2 or h3")
	case bodyWant(c) != "":
		return nil, fielderr.New("BodySize", c.BodySize, "%s", bodyWant(c))
	}
	if err := c.Client.Config.Validate(); err != nil {
		return nil, fielderr.Within("Client", err)
	}
	return u, nil
}

// checkCounts refuses Conns, Streams and Requests out of range.
func (c Config) checkCounts() error {
	switch {
	case c.Conns < 1:
		return fielderr.New("Conns", c.Conns, "at least 1")
	case c.Streams < 1:
		return fielderr.New("Streams", c.Streams, "at least 1")
	case c.Streams > 1 && c.Client.Protocol.Version() == 1:
		return fielderr.New("Streams", c.Streams, "1 for HTTP/1.1, which carries one request at a time per connection (pipelining is not implemented): more connections instead, or HTTP/2 or HTTP/3")
	case c.Requests < 0:
		return fielderr.New("Requests", c.Requests, "0 (run for a duration) or more")
	}
	return nil
}

// checkDurations refuses a negative Duration, Warmup, RequestTimeout or
// MaxDuration.
func (c Config) checkDurations() error {
	switch {
	case c.Duration < 0:
		return fielderr.New("Duration", c.Duration, "a positive duration, or 0 for the default")
	case c.Warmup < 0:
		return fielderr.New("Warmup", c.Warmup, "0 or more")
	case c.RequestTimeout < 0:
		return fielderr.New("RequestTimeout", c.RequestTimeout, "a positive duration, or 0 for the default")
	case c.MaxDuration < 0:
		return fielderr.New("MaxDuration", c.MaxDuration, "a positive duration, or 0 for the default")
	}
	return nil
}

// checkRate refuses a negative Rate, and a Share that is malformed or
// has nothing to divide (no rate and no request count, or too few
// requests to leave this part any).
func (c Config) checkRate() error {
	switch {
	case c.Rate < 0:
		return fielderr.New("Rate", c.Rate, "0 (closed loop) or more")
	case c.Share.check() != nil:
		return fielderr.New("Share", c.Share, "INDEX/PARTS with 0 <= INDEX < PARTS")
	case !c.Share.whole() && c.Rate == 0 && c.Requests == 0:
		return fielderr.New("Share", c.Share, "a share of a rate or of a request count: give one")
	case !c.Share.whole() && c.Share.requests(c.Requests) == 0 && c.Requests > 0:
		return fielderr.New("Share", c.Share, "a share with requests: %d requests leave none to part %d", c.Requests, c.Share.Index)
	}
	return nil
}

// isToken reports whether s is an RFC 9110 token (section 5.6.2), as a
// method must be.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}
