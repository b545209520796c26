package transfer

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// TestTimeoutEndsStalledH1Download checks that a download asleep in a
// blocking recv (h1 reads with blocking sockets) ends at the run's
// timeout, keeping the bytes that arrived.
func TestTimeoutEndsStalledH1Download(t *testing.T) {
	const sent = 1 << 20
	stop := make(chan struct{})
	stall := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "10000000")
		w.Write(make([]byte, sent))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer stall.Close()
	defer close(stop)
	start := time.Now()
	res, err := Run(context.Background(), Plan{
		URL:       stall.URL + "/",
		Transfers: 1,
		Client:    transport.ClientOptions{Protocol: transport.H1, BlockingSockets: true},
		Timeout:   500 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the run took %v past a 500ms timeout", d)
	}
	if !res.Interrupted || res.Bytes != sent || res.Errors.Total != 1 {
		t.Fatalf("interrupted %v, %d bytes, %d errors (%s); want interrupted with %d bytes and 1 error",
			res.Interrupted, res.Bytes, res.Errors.Total, res.FirstError, sent)
	}
}

// TestResultSaysHowBlockingSocketsWaited checks that a download over
// blocking sockets reports how its Reads waited, and one without them
// reports nothing.
func TestResultSaysHowBlockingSocketsWaited(t *testing.T) {
	const size = 8 << 20
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "8388608")
		w.Write(make([]byte, size))
	}))
	defer srv.Close()
	for _, blocking := range []bool{true, false} {
		res, err := Run(context.Background(), Plan{
			URL:       srv.URL + "/",
			Transfers: 1,
			Client:    transport.ClientOptions{Protocol: transport.H1, BlockingSockets: blocking},
		})
		if err != nil {
			t.Fatal(err)
		}
		if res.Bytes != size || res.Errors.Total != 0 {
			t.Fatalf("blocking %v: %d bytes, %d errors (%s); want %d bytes", blocking, res.Bytes, res.Errors.Total, res.FirstError, size)
		}
		w := res.Client.ReadWaits
		switch {
		case !blocking && w != nil:
			t.Fatalf("Go's own I/O reports read waits %+v", *w)
		case blocking && (w == nil || w.Reads == 0 || w.Mode() == ""):
			t.Fatalf("blocking sockets report read waits %+v, want their Reads and mode", w)
		}
	}
}
