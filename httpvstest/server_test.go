package httpvstest

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/httpvs/httpvs/transport"
)

// protoHandler answers with the request's protocol, or with N bytes for
// /bytes?n=N.
var protoHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	if n, err := strconv.Atoi(r.URL.Query().Get("n")); err == nil {
		w.Write(bytes.Repeat([]byte("x"), n))
		return
	}
	io.WriteString(w, r.Proto+" "+transport.OfRequest(r).String())
})

func TestServerEveryTransport(t *testing.T) {
	want := map[transport.Protocol]string{
		transport.H1: "HTTP/1.1 h1", transport.H2C: "HTTP/2.0 h2c", transport.H1TLS: "HTTP/1.1 h1-tls",
		transport.H2: "HTTP/2.0 h2", transport.H3: "HTTP/3.0 h3",
	}
	for _, p := range transport.All {
		t.Run(p.String(), func(t *testing.T) {
			srv := NewServer(protoHandler, p)
			defer srv.Close()
			if srv.Protocol != p || srv.URL != srv.Server.URL(p) {
				t.Fatalf("server %s at %s", srv.Protocol, srv.URL)
			}
			resp, err := srv.Client().Get(srv.URL + "/")
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || string(body) != want[p] {
				t.Fatalf("body %q (%v), want %q", body, err, want[p])
			}
			// An exact byte count, on the same client and connection.
			resp, err = srv.Client().Get(srv.URL + "/bytes?n=1000003")
			if err != nil {
				t.Fatal(err)
			}
			n, err := io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if err != nil || n != 1000003 {
				t.Fatalf("read %d bytes (%v), want 1000003", n, err)
			}
			tc, err := srv.TransportClient()
			if err != nil || tc.Counters().Connections != 1 {
				t.Fatalf("client opened %d connections (%v), want 1", tc.Counters().Connections, err)
			}
		})
	}
}

func TestServerOtherClientsAreRefused(t *testing.T) {
	srv := NewServer(protoHandler, transport.H2)
	defer srv.Close()
	// A client that does not trust the self-signed certificate fails.
	if _, err := http.Get(srv.URL + "/"); err == nil {
		t.Fatal("an untrusting client got through")
	}
}
