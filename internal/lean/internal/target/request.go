package target

import (
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/http2/hpack"
)

// ReadBuffer is the size of a connection's read buffer, bytes.
const ReadBuffer = 64 << 10

// Request is the request a client repeats.
type Request struct {
	Method string      // GET if empty
	URL    *url.URL    // http:// or https://
	Host   string      // the Host header's (HTTP/1.1) or :authority's (HTTP/2, HTTP/3) value; URL.Host if empty
	Header http.Header // extra headers; Host, Content-Length and hop-by-hop ones are set by the client
	Body   []byte      // sent with each request; nil for none
}

// Response is what a lean request returns.
type Response struct {
	Status    int   // HTTP status code
	BodyBytes int64 // response body bytes read
	// FirstByte is when the response's first byte arrived (its HEADERS
	// frame on HTTP/2); in a Loop, the clock reading of the socket
	// read that brought it. Zero if nothing arrived.
	FirstByte time.Time
}

// SortedHeaderKeys returns h's keys in order, so requests are stable.
func SortedHeaderKeys(h http.Header) []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// RequestFields returns req's header fields, as HTTP/2's and HTTP/3's
// HEADERS frames carry them: the pseudo-headers, user-agent unless req
// sets one, req's headers lower-cased in key order, and content-length
// when there is a body or the method carries one.
func RequestFields(req Request) []hpack.HeaderField {
	fields := []hpack.HeaderField{
		{Name: ":method", Value: req.Method},
		{Name: ":scheme", Value: req.URL.Scheme},
		{Name: ":authority", Value: req.Authority()},
		{Name: ":path", Value: req.URL.RequestURI()},
	}
	if _, ok := req.Header["User-Agent"]; !ok {
		fields = append(fields, hpack.HeaderField{Name: "user-agent", Value: "httpvs"})
	}
	for _, k := range SortedHeaderKeys(req.Header) {
		if connectionSpecific(k) {
			continue // the client sets them, or HTTP/2 and HTTP/3 forbid them
		}
		for _, v := range req.Header[k] {
			fields = append(fields, hpack.HeaderField{Name: strings.ToLower(k), Value: v})
		}
	}
	if len(req.Body) > 0 || req.Method == "POST" || req.Method == "PUT" {
		fields = append(fields, hpack.HeaderField{Name: "content-length", Value: strconv.Itoa(len(req.Body))})
	}
	return fields
}

// Authority is the request's host as sent: Host, or URL.Host.
func (req Request) Authority() string {
	if req.Host != "" {
		return req.Host
	}
	return req.URL.Host
}

// connectionSpecific says whether a header named k is not sent as given
// over HTTP/2 and HTTP/3: Host (it is :authority), Content-Length (the
// client writes it), and the hop-by-hop headers RFC 9113 8.2.2 forbids
// (TE among them: load passes it only as "trailers", which is dropped
// here too, as nothing here reads trailers).
func connectionSpecific(k string) bool {
	switch strings.ToLower(k) {
	case "host", "content-length", "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te":
		return true
	}
	return false
}
