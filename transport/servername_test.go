package transport

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"
)

// TestClientServerName: a client given ServerName sends it (SNI) over
// h1-tls, h2 and h3 to a URL naming an IP address, which TLS sends no
// name for, as the request's Host too (with the URL's port), and
// verifies the certificate against it: trusted for localhost, refused
// for a name the certificate does not hold.
func TestClientServerName(t *testing.T) {
	s, err := NewServer(ServerOptions{
		TLSListen: "127.0.0.1:0",
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, r.TLS.ServerName+" "+r.Host)
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	get := func(p Protocol, name string) (string, error) {
		c, err := NewClient(ClientOptions{Protocol: p, RootCAs: CertPool(s.Cert()), ServerName: name})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL(p)+"/", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		return string(body), err
	}
	for _, p := range []Protocol{H1TLS, H2, H3} {
		t.Run(p.String(), func(t *testing.T) {
			u, err := url.Parse(s.URL(p))
			if err != nil {
				t.Fatal(err)
			}
			if got, err := get(p, "localhost"); err != nil || got != "localhost localhost:"+u.Port() {
				t.Errorf("with localhost: the server saw %q, %v; want localhost, Host localhost:%s", got, err, u.Port())
			}
			if got, err := get(p, ""); err != nil || got != " "+u.Host {
				t.Errorf("with none: the server saw %q, %v; want no name, Host %s", got, err, u.Host)
			}
			var ve *tls.CertificateVerificationError
			if _, err := get(p, "api.example.test"); !errors.As(err, &ve) {
				t.Errorf("with a name the certificate lacks: %v, want a verification error", err)
			}
		})
	}
}
