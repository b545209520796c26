package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// writeChunk is the server's body write size, httpvs serve's default (256 KiB).
const writeChunk = 256 << 10

// chunk is the pattern bytes /bytes/{n} writes.
var chunk = func() []byte {
	b := make([]byte, writeChunk)
	for i := range b {
		b[i] = byte('a' + i%26)
	}
	return b
}()

// handler serves GET /bytes/{n} (exactly n bytes, n decimal) and GET
// /small (the two bytes "ok"), as httpvs serve does.
func handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/bytes/", func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, "/bytes/"), 10, 64)
		if err != nil || n < 0 {
			http.Error(w, "want /bytes/{decimal size}", http.StatusBadRequest)
			return
		}
		h := w.Header()
		h.Set("Content-Length", strconv.FormatInt(n, 10))
		h.Set("Content-Type", "application/octet-stream")
		w.WriteHeader(http.StatusOK)
		for n > 0 {
			m, err := w.Write(chunk[:min(n, writeChunk)])
			if err != nil {
				return
			}
			n -= int64(m)
		}
	})
	mux.HandleFunc("/small", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", "2")
		_, _ = io.WriteString(w, "ok")
	})
	return mux
}

// serve listens on two loopback ports, prints the Hello line and serves
// until in reaches its end (the parent closed it or exited).
func serve(in io.Reader, out io.Writer) error {
	plain, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	secure, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	cert, certPEM, err := selfSigned()
	if err != nil {
		return err
	}
	h := handler()
	// h1 and h2c on one port (plainServer: h2c_new.go or h2c_old.go);
	// h1-tls and h2 on the other, as ServeTLS configures HTTP/2 by default.
	ps := plainServer(h)
	ts := &http.Server{Handler: h, TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}}}
	errs := make(chan error, 2)
	go func() { errs <- ps.Serve(plain) }()
	go func() { errs <- ts.ServeTLS(secure, "", "") }()
	hi := hello()
	hi.Plain = "http://" + plain.Addr().String()
	hi.TLS = "https://" + secure.Addr().String()
	hi.CertPEM = certPEM
	if err := writeLine(out, hi); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, in)
		close(done)
	}()
	select {
	case <-done:
		return nil
	case err := <-errs:
		return err
	}
}

// selfSigned makes a certificate for 127.0.0.1, valid for a day.
func selfSigned() (tls.Certificate, string, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, "", err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "httpvs goversions child"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:     []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, "", err
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, string(certPEM), nil
}
