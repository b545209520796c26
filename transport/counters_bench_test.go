package transport

import (
	"io"
	"net/http"
	"strconv"
	"testing"
)

// BenchmarkDownloadCounters prices httpvs's connection counters (I/O
// calls at both ends, h2c frame parsing): 64 MiB over h1 and h2c with
// them on and off. bench/counters.sh prints the ratios.
func BenchmarkDownloadCounters(b *testing.B) {
	const size = 64 << 20
	chunk := make([]byte, 256<<10)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(size))
		for n := 0; n < size; n += len(chunk) {
			w.Write(chunk)
		}
	})
	for _, p := range []Protocol{H1, H2C} {
		for _, on := range []bool{true, false} {
			name := p.String() + "/counters=on"
			if !on {
				name = p.String() + "/counters=off"
			}
			b.Run(name, func(b *testing.B) {
				counting = on
				defer func() { counting = true }()
				s, err := NewServer(ServerOptions{Handler: h, Listen: "127.0.0.1:0"})
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				c, err := NewClient(ClientOptions{Protocol: p})
				if err != nil {
					b.Fatal(err)
				}
				defer c.Close()
				buf := make([]byte, 256<<10)
				b.SetBytes(size)
				for b.Loop() {
					resp, err := c.HTTP().Get(s.URL(p) + "/")
					if err != nil {
						b.Fatal(err)
					}
					n, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{resp.Body}, buf)
					resp.Body.Close()
					if err != nil || n != size {
						b.Fatalf("%d bytes: %v", n, err)
					}
				}
			})
		}
	}
}
