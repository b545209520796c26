package cli

import (
	"crypto/tls"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/transport"
)

// namedTLSServer serves /small ("ok") over TLS only to clients that send
// the server name localhost, and only for the site localhost, as a
// server keeping a certificate and a site per name does; the others get
// an internal_error alert. It returns its base URL.
func namedTLSServer(t *testing.T) string {
	t.Helper()
	cert, err := transport.SelfSigned()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if h, _, _ := net.SplitHostPort(r.Host); h != "localhost" {
				http.Error(w, "no site for "+r.Host, http.StatusMisdirectedRequest)
				return
			}
			w.Write([]byte("ok"))
		}),
		TLSConfig: &tls.Config{GetCertificate: func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
			if hello.ServerName != "localhost" {
				return nil, errors.New("no certificate without a name")
			}
			return &cert, nil
		}},
		ErrorLog: log.New(io.Discard, "", 0),
	}
	go srv.ServeTLS(ln, "", "")
	t.Cleanup(func() { srv.Close() })
	return "https://" + ln.Addr().String()
}

// TestGetSNIHint: get and load against a server that refuses TLS
// handshakes without a name, at an IP address, fail (exit 1) in one line
// giving the likely cause and --sni NAME, and not the self-signed
// certificate's advice; with --sni localhost they succeed (the name sent
// as SNI and as the Host).
func TestGetSNIHint(t *testing.T) {
	base := namedTLSServer(t)
	const want = "the server refused the TLS handshake: likely because 127.0.0.1 is an IP address, for which TLS sends no server name (SNI), and the server chose no certificate without one; give the name its certificate is for: --sni NAME, e.g. --sni localhost\n"
	for _, args := range [][]string{
		{"get", base + "/small", "-p", "h1-tls", "-k"},
		{"get", base + "/small", "-p", "h2", "-k"},
		{"load", base + "/small", "-p", "h2", "-k", "-n", "3", "--engine", "std"},
		{"load", base + "/small", "-p", "h1-tls", "-k", "-n", "3", "--engine", "fast"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, _, stderr := runMain(t, args...)
			if code != exitFailure || !strings.HasSuffix(stderr, want) || strings.Contains(stderr, "self-signed") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr:\n%s\nwant 1 and one line ending %q", code, stderr, want)
			}
			code, _, stderr = runMain(t, append(args, "--sni", "localhost")...)
			if code != exitOK {
				t.Errorf("with --sni localhost: exit %d, stderr:\n%s", code, stderr)
			}
		})
	}
}
