package transport_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// One server for all five transports on loopback, and a client for each
// protocol that trusts the server's self-signed certificate: h1 and h2c
// share the cleartext listener, h1-tls and h2 the TLS one (by ALPN), and
// h3 its UDP port.
func Example() {
	srv, err := transport.NewServer(transport.ServerOptions{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, r.Proto)
		}),
		Listen:    "127.0.0.1:0",
		TLSListen: "127.0.0.1:0",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	for _, p := range transport.All {
		client, err := transport.NewClient(transport.ClientOptions{
			Protocol: p,
			RootCAs:  transport.CertPool(srv.Cert()),
		})
		if err != nil {
			fmt.Println(p, err)
			continue
		}
		fmt.Printf("%-6s %s\n", p, get(ctx, client, srv.URL(p)+"/"))
		client.Close()
	}
	// Output:
	// h1     HTTP/1.1
	// h2c    HTTP/2.0
	// h1-tls HTTP/1.1
	// h2     HTTP/2.0
	// h3     HTTP/3.0
}

// get returns the body of a GET of url, or the error.
func get(ctx context.Context, client *transport.Client, url string) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err.Error()
	}
	resp, err := client.Do(req)
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err.Error()
	}
	return string(body)
}

// A client and a server tuned through config, for h2c: the client
// advertises 1 MiB frames (Go's client asks for 16 KiB) and reads bodies
// 64 KiB at a time, the server writes them in 64 KiB chunks. The zero
// config.Client and config.Server are Go as shipped.
func ExampleNewClient() {
	srv, err := transport.NewServer(transport.ServerOptions{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, r.Proto)
		}),
		Listen: "127.0.0.1:0",
		Config: config.Server{WriteSize: 64 * units.KiB},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	client, err := transport.NewClient(transport.ClientOptions{
		Protocol: transport.H2C,
		Config: config.Client{
			HTTP2:    config.HTTP2{MaxReadFrameSize: units.MiB},
			ReadSize: 64 * units.KiB,
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	fmt.Println(get(ctx, client, srv.URL(transport.H2C)+"/"), client.Counters().Connections)
	// Output: HTTP/2.0 1
}
