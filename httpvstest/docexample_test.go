// docs/gotest.md's example, verbatim but for the package name, so that it
// keeps compiling; TestGotestDocExample holds the two together.
package httpvstest_test

import (
	"io"
	"net/http"
	"testing"

	"github.com/httpvs/httpvs/httpvstest"
	"github.com/httpvs/httpvs/transport"
)

var myHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })

func BenchmarkMyHandler(b *testing.B) {
	for _, p := range transport.All { // h1, h2c, h1-tls, h2, h3
		b.Run(p.String(), func(b *testing.B) {
			srv := httpvstest.NewServer(myHandler, p)
			defer srv.Close()
			client := srv.Client()
			b.ReportAllocs()
			for b.Loop() {
				resp, err := client.Get(srv.URL + "/")
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
}
