package load_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/httpvs/httpvs/httpvstest"
	"github.com/httpvs/httpvs/load"
	"github.com/httpvs/httpvs/transport"
)

// A closed-loop load against a target on loopback: 2 connections, 4
// requests in flight on each (HTTP/2 streams), 200 measured requests.
// The run is bounded by its count; the figures beside the counts
// (Latency, RequestsPerSecond, ...) vary from run to run.
func ExampleRun() {
	srv := httpvstest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}), transport.H2C)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := load.Run(ctx, load.Config{
		URL:      srv.URL + "/",
		Client:   transport.ClientOptions{Protocol: transport.H2C},
		Conns:    2,
		Streams:  4,
		Requests: 200,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Protocol, res.Mode)
	fmt.Println("requests:", res.Requests, "succeeded:", res.Succeeded, "connections:", res.Connections)
	fmt.Println("latencies measured:", res.Latency.Count)
	// Output:
	// h2c closed
	// requests: 200 succeeded: 200 connections: 2
	// latencies measured: 200
}

// An open loop over HTTP/1.1 with TLS: 100 requests sent at 500 a second
// whether or not earlier ones have come back, latency measured from when
// each was due (so a stalled server shows as latency, not as a slower
// rate). A TLS target is trusted through the server's own certificate.
func ExampleRun_openLoop() {
	srv := httpvstest.NewServer(http.NotFoundHandler(), transport.H1TLS)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := load.Run(ctx, load.Config{
		URL: srv.URL + "/missing",
		Client: transport.ClientOptions{
			Protocol: transport.H1TLS,
			RootCAs:  transport.CertPool(srv.Server.Cert()),
		},
		Conns:    4,
		Streams:  1,
		Requests: 100,
		Rate:     500,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Protocol, res.Mode, res.Requests, "requests")
	fmt.Println("404s counted as errors:", res.Errors.Status)
	// Output:
	// h1-tls open 100 requests
	// 404s counted as errors: 100
}
