package httpvstest

import (
	"io"
	"net/http"
	"testing"

	"github.com/httpvs/httpvs/transport"
)

// small answers every request with two bytes, as the gonuget benchmark's handler does.
var small = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") })

// get sends one GET and drains the body.
func get(b *testing.B, c *http.Client, url string, buf []byte) {
	resp, err := c.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	for {
		_, err := resp.Body.Read(buf)
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("status %d", resp.StatusCode)
	}
}

// BenchmarkRequest is the gonuget benchmark's sequential table: one small GET at a time
// over each transport, client and server in this process (B/op and
// allocs/op count both ends, as the seed's did).
func BenchmarkRequest(b *testing.B) {
	for _, p := range transport.All {
		b.Run(p.String(), func(b *testing.B) {
			srv := NewServer(small, p)
			defer srv.Close()
			c, url, buf := srv.Client(), srv.URL+"/small", make([]byte, 512)
			get(b, c, url, buf) // connect outside the timing
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				get(b, c, url, buf)
			}
		})
	}
}

// BenchmarkRequestParallel is the gonuget benchmark's concurrent table: GOMAXPROCS
// goroutines (b.RunParallel) sharing one client, so h1 opens a connection
// per goroutine while h2c, h2 and h3 multiplex one.
func BenchmarkRequestParallel(b *testing.B) {
	for _, p := range transport.All {
		b.Run(p.String(), func(b *testing.B) {
			srv := NewServer(small, p)
			defer srv.Close()
			c, url := srv.Client(), srv.URL+"/small"
			get(b, c, url, make([]byte, 512))
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				buf := make([]byte, 512)
				for pb.Next() {
					get(b, c, url, buf)
				}
			})
		})
	}
}
