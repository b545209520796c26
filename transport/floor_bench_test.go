package transport

import (
	"io"
	"net/http"
	"strconv"
	"testing"
)

// BenchmarkFloorH3 is what the response floor costs an h3 download:
// 64 MiB GETs with the floor on (its 64 KiB pieces, counted) and off
// (bench/floor.sh runs it in rounds and prints on/off).
func BenchmarkFloorH3(b *testing.B) {
	const size = 64 << 20
	chunk := make([]byte, 256<<10)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(size))
		for n := 0; n < size; n += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	for _, on := range []bool{true, false} {
		b.Run("floor="+map[bool]string{true: "on", false: "off"}[on], func(b *testing.B) {
			rate := MinDataRate{}
			if !on {
				rate.BytesPerSecond = -1
			}
			s := tlsFloorServer(b, h, rate)
			c, err := NewClient(ClientOptions{Protocol: H3, RootCAs: CertPool(s.Cert())})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			buf := make([]byte, 256<<10)
			b.SetBytes(size)
			for b.Loop() {
				resp, err := c.HTTP().Get(s.URL(H3) + "/")
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
