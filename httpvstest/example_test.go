package httpvstest_test

import (
	"fmt"
	"io"
	"net/http"

	"github.com/httpvs/httpvs/httpvstest"
	"github.com/httpvs/httpvs/transport"
)

// One handler served and called over every transport, as a test or
// benchmark of your own would.
func Example() {
	hello := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello over "+r.Proto)
	})
	for _, p := range transport.All {
		srv := httpvstest.NewServer(hello, p)
		resp, err := srv.Client().Get(srv.URL + "/")
		if err != nil {
			fmt.Println(p, err)
			srv.Close()
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		srv.Close()
		fmt.Printf("%-6s %s\n", p, body)
	}
	// Output:
	// h1     hello over HTTP/1.1
	// h2c    hello over HTTP/2.0
	// h1-tls hello over HTTP/1.1
	// h2     hello over HTTP/2.0
	// h3     hello over HTTP/3.0
}

// The gonuget benchmark's switches pick the transport for a client.
func ExampleServer_Client() {
	p, _ := transport.Switches{EnableHTTP2: true}.Protocol("https")
	srv := httpvstest.NewServer(http.NotFoundHandler(), p)
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL + "/missing")
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	fmt.Println(p, resp.Proto, resp.StatusCode)
	// Output: h2 HTTP/2.0 404
}
