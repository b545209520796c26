package transport

import (
	"fmt"
	"net/http"
)

// EarlyData reports whether r arrived in QUIC 0-RTT data on a connection
// whose handshake has not completed yet. Such a request may be a replay:
// an attacker who captured a client's first flight can send it again,
// though it cannot complete the handshake (RFC 8470 section 1, RFC 9114
// section 10.9). TLS over TCP never carries early data here (crypto/tls
// does not accept it), so only h3 requests can report true.
func EarlyData(r *http.Request) bool {
	m, ok := r.Context().Value(connMarkKey{}).(*connMark)
	if !ok || m.handshake == nil {
		return false
	}
	select {
	case <-m.handshake:
		return false
	default:
		return true
	}
}

// SafeMethod reports whether method is safe in RFC 9110's sense (section
// 9.2.1: GET, HEAD, OPTIONS, TRACE), the only kind of request a server
// may act on from early data without waiting for the handshake.
func safeMethod(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return true
	}
	return false
}

// TooEarly answers r with 425 Too Early (RFC 8470 section 5.2): r came in
// early data and will be acted on only once the client sends it again
// after the handshake has completed.
func TooEarly(w http.ResponseWriter, r *http.Request) {
	http.Error(w, fmt.Sprintf("%s %s arrived in 0-RTT early data, which can be replayed; send it again once the handshake has completed (RFC 8470)",
		r.Method, r.URL.Path), http.StatusTooEarly)
}

// refuseEarly answers 425 Too Early to any request in early data whose
// method is not safe, before h sees it: 0-RTT is for requests that change
// nothing (RFC 8470 section 3, RFC 9114 section 10.9). Safe requests in
// early data reach h, which may still refuse them (TooEarly) when they
// reveal or change what a replay must not.
func refuseEarly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !safeMethod(r.Method) && EarlyData(r) {
			TooEarly(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}
