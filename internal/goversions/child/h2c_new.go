//go:build go1.24

package main

import "net/http"

// h2cImplementation names the HTTP/2 code h2c runs on.
const h2cImplementation = "net/http (http.Protocols)"

// plainServer serves h1 and h2c (prior knowledge) on one listener.
func plainServer(h http.Handler) *http.Server {
	var p http.Protocols
	p.SetHTTP1(true)
	p.SetUnencryptedHTTP2(true)
	return &http.Server{Handler: h, Protocols: &p}
}

// h2cTransport speaks h2c with prior knowledge.
func h2cTransport() http.RoundTripper {
	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	return &http.Transport{Protocols: &p}
}
