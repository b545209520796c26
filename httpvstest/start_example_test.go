package httpvstest_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/httpvstest"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// A test server with both ends tuned, and httpvs's own client for it,
// which counts connections and refuses a response over another
// transport. In a test, stop it with t.Cleanup(srv.Close) and report
// errors with t.Fatal; here they are printed.
func ExampleStart() {
	srv, err := httpvstest.Start(httpvstest.Options{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(w, strings.NewReader(strings.Repeat("x", 1<<20)))
		}),
		Protocol: transport.H2C,
		Config: config.Config{
			Client: config.Client{
				HTTP2:    config.HTTP2{MaxReadFrameSize: units.MiB},
				ReadSize: 256 * units.KiB,
			},
			Server: config.Server{WriteSize: 256 * units.KiB},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	client, err := srv.TransportClient()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer client.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for range 3 {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/", nil)
		resp, err := client.Do(req)
		if err != nil {
			fmt.Println(err)
			return
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		fmt.Println(resp.Proto, units.Bytes(n))
	}
	fmt.Println("connections:", client.Counters().Connections)
	// Output:
	// HTTP/2.0 1Mi
	// HTTP/2.0 1Mi
	// HTTP/2.0 1Mi
	// connections: 1
}
