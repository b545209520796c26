//go:build !go1.24

package main

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"runtime/debug"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/h2c"
)

// h2cImplementation names the HTTP/2 code h2c runs on: before go1.24
// net/http has no h2c, so it is x/net's, at the version go.mod.txt asks for.
var h2cImplementation = func() string {
	name := "golang.org/x/net/http2 (h2c package)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "golang.org/x/net" {
				name = "golang.org/x/net " + d.Version + " http2 (h2c package)"
			}
		}
	}
	return name
}()

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
