package experiment

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"math/big"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/plan"
)

// certFor is a self-signed certificate for the DNS names and IP
// addresses in hosts, and nothing else.
func certFor(t *testing.T, hosts ...string) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// tlsServer serves TLS handshakes on loopback with cert: to every
// client, or, when byName, only to those that send one of its names, as
// Caddy does for a site named by its host (the others get an
// internal_error alert). It returns the base URL and the names the
// clients sent.
func tlsServer(t *testing.T, cert tls.Certificate, byName bool) (string, func() []string) {
	t.Helper()
	leaf, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	sent := make(chan string, 16)
	conf := &tls.Config{GetCertificate: func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
		sent <- hello.ServerName
		if byName && !slices.Contains(leaf.DNSNames, hello.ServerName) {
			return nil, fmt.Errorf("no certificate for %q", hello.ServerName)
		}
		return &cert, nil
	}}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", conf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_ = c.(*tls.Conn).Handshake()
				_ = c.SetReadDeadline(time.Now().Add(time.Second))
				_, _ = c.Read(make([]byte, 1))
			}()
		}
	}()
	return "https://" + ln.Addr().String(), func() []string {
		var names []string
		for {
			select {
			case n := <-sent:
				names = append(names, n)
			default:
				return names
			}
		}
	}
}

// TestReachTargetLearnsServerName: a TLS target at an IP address gets a
// name to send: its certificate's first DNS name that is not a wildcard
// (said to Warn), localhost when it refuses a handshake without a name
// and presents a certificate for localhost when asked, none when its
// certificate holds the address; one that refuses every name is a
// *ServerNameError; a name given is kept, and nothing asked of the server.
func TestReachTargetLearnsServerName(t *testing.T) {
	tests := []struct {
		name       string
		hosts      []string
		byName     bool
		given      string
		want       string
		wantSent   []string
		wantRefuse bool
	}{
		{"certificate's name", []string{"*.wild.test", "api.example.test"}, false, "", "api.example.test", []string{""}, false},
		{"localhost on loopback", []string{"localhost"}, true, "", "localhost", []string{"", "localhost"}, false},
		{"refused", []string{"api.example.test"}, true, "", "", []string{"", "localhost"}, true},
		{"address in the certificate", []string{"localhost", "127.0.0.1"}, false, "", "", []string{""}, false},
		{"given", []string{"localhost"}, true, "api.example.test", "api.example.test", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, sent := tlsServer(t, certFor(t, tt.hosts...), tt.byName)
			target := plan.Target{TLS: base, ServerName: tt.given}
			var warned []error
			err := reachTarget(context.Background(), &target, func(err error) { warned = append(warned, err) })
			var se *ServerNameError
			switch {
			case tt.wantRefuse:
				if !errors.As(err, &se) || se.URL != base || !strings.Contains(err.Error(), "internal error") {
					t.Fatalf("err %v, want a *ServerNameError for %s with the server's alert", err, base)
				}
			case err != nil:
				t.Fatal(err)
			}
			if target.ServerName != tt.want {
				t.Errorf("server name %q, want %q", target.ServerName, tt.want)
			}
			// The server hears each name before it answers the hello:
			// every one is in once reachTarget has returned.
			if got := sent(); !slices.Equal(got, tt.wantSent) {
				t.Errorf("names sent %q, want %q", got, tt.wantSent)
			}
			var note *ServerNameNote
			learned := tt.want != "" && tt.given == ""
			if learned != (len(warned) == 1 && errors.As(warned[0], &note) && note.Name == tt.want && note.URL == base) || (!learned && len(warned) != 0) {
				t.Errorf("warned %v, want a note of %q: %v", warned, tt.want, learned)
			}
		})
	}
}
