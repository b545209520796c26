package load

import (
	"net/http"
	"strings"

	"github.com/httpvs/httpvs/transport"
)

// hopByHop are the connection-specific headers HTTP/2 and HTTP/3 forbid in
// a request (RFC 9113 8.2.2, RFC 9114 4.2), TE apart: it may say
// "trailers".
var hopByHop = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Transfer-Encoding", "Upgrade"}

// requestHost takes a Host header out of h, whatever the case of its name,
// and returns its value (the first), or def when there is none: the
// engines send it as the request's host, once (net/http reads
// Request.Host, not a Host header).
func requestHost(h http.Header, def string) string {
	host := def
	for k, vs := range h {
		if strings.EqualFold(k, "Host") {
			if len(vs) > 0 && vs[0] != "" && host == def {
				host = vs[0]
			}
			delete(h, k)
		}
	}
	return host
}

// dropHopByHop takes out of h the headers p may not carry: over HTTP/2
// and HTTP/3 the connection-specific ones, and TE unless it is
// "trailers". HTTP/1.1 sends them as given.
func dropHopByHop(h http.Header, p transport.Protocol) {
	if p.Version() < 2 {
		return
	}
	for k, vs := range h {
		switch {
		case containsFold(hopByHop, k):
			delete(h, k)
		case strings.EqualFold(k, "TE") && !(len(vs) == 1 && strings.EqualFold(strings.TrimSpace(vs[0]), "trailers")):
			delete(h, k)
		}
	}
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}
