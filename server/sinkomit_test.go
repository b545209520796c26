package server

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// slowBody hands out n chunks of size bytes, one every gap: an upload
// arriving over time, as across a slow link.
type slowBody struct {
	n, size int
	gap     time.Duration
}

func (b *slowBody) Read(p []byte) (int, error) {
	if b.n == 0 {
		return 0, io.EOF
	}
	time.Sleep(b.gap)
	b.n--
	return copy(p[:min(len(p), b.size)], strings.Repeat("x", b.size)), nil
}

// TestSinkOmit checks /sink?omit=: the bytes after the omit and the time
// from it to the last byte are the receiver's steady part, and a bad
// omit is refused with 400 and a line saying what would be right.
func TestSinkOmit(t *testing.T) {
	srv, err := Start(Config{Transport: Loopback()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	base := srv.Transport.URL(transport.H1)
	req, err := http.NewRequest("PUT", base+"/sink?omit=100ms", &slowBody{n: 30, size: 1000, gap: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var got sinkResult
	err = json.NewDecoder(resp.Body).Decode(&got)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("status %d, %v", resp.StatusCode, err)
	}
	if got.Bytes != 30000 || got.SteadyBytes <= 0 || got.SteadyBytes >= got.Bytes || got.SteadySeconds <= 0 || got.SteadySeconds > got.Seconds-0.1+0.01 {
		t.Errorf("sink said %+v: want 30000 bytes, a steady part after the first 100 ms that holds some of them", got)
	}
	resp, err = http.Post(base+"/sink?omit=soon", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(body), "want a duration") {
		t.Errorf("omit=soon: %d %q, want 400 saying what would be right", resp.StatusCode, body)
	}
}
