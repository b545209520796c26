package server

import (
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/httpvs/httpvs/internal/dial"
	"github.com/httpvs/httpvs/transport"
)

// tokenHeader is the request header that carries the server's token, as
// "Bearer TOKEN" (RFC 6750).
const tokenHeader = "Authorization"

// guard wraps a route that changes the server's state or reveals its
// internals (POST /stats/reset, /debug/profile/): with a Token it requires
// it; without one it is open on loopback and refused when the server is
// Exposed. Reads of /stats stay open, so peers' runs still cross-check.
// Whatever the method, a guarded route is never served from 0-RTT early
// data before the handshake completes (425 Too Early, RFC 8470): a replay
// of it, token and all, would otherwise act again.
func (s *Server) guard(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if transport.EarlyData(r) {
			transport.TooEarly(w, r)
			return
		}
		if s.token == "" && !s.exposed {
			h(w, r)
			return
		}
		if s.token == "" {
			http.Error(w, fmt.Sprintf("%s %s is refused: this server listens beyond loopback and was started without a token; start it with one to allow it", r.Method, r.URL.Path), http.StatusForbidden)
			return
		}
		got, ok := strings.CutPrefix(r.Header.Get(tokenHeader), "Bearer ")
		if !ok || got == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="httpvs"`)
			http.Error(w, fmt.Sprintf("%s %s needs this server's token: send the header %s: Bearer TOKEN", r.Method, r.URL.Path, tokenHeader), http.StatusUnauthorized)
			return
		}
		if subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) != 1 {
			http.Error(w, fmt.Sprintf("%s %s is refused: the token sent is not this server's", r.Method, r.URL.Path), http.StatusForbidden)
			return
		}
		h(w, r)
	}
}

// BeyondLoopback reports whether a listen address (host:port, as
// net.Listen takes it) may be reached from beyond this machine: an empty
// or unspecified host (":8080", "0.0.0.0:8080"), a non-loopback address,
// or a name other than localhost. An empty address (no listener) is not.
func beyondLoopback(addr string) bool {
	if addr == "" {
		return false
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return true // not ours to judge: assume the worst
	}
	return !dial.LoopbackHost(host)
}
