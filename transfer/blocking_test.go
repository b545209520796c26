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
