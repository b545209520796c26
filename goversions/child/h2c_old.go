//go:build !go1.24

package main

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/h2c"
)

// h2cImplementation names the HTTP/2 code h2c runs on: before go1.24
// net/http has no h2c, so it is x/net's (the version in go.mod.txt).
const h2cImplementation = "golang.org/x/net/http2 (h2c package)"

// plainServer serves h1 and h2c (prior knowledge) on one listener.
func plainServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h2c.NewHandler(h, &http2.Server{})}
}

// h2cTransport speaks h2c with prior knowledge.
func h2cTransport() http.RoundTripper {
	return &http2.Transport{
		AllowHTTP: true,
		DialTLSContext: func(ctx context.Context, network, addr string, _ *tls.Config) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		},
	}
}
