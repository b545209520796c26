package transfer

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// paced serves chunks of size bytes, one every gap: a download whose
// bytes arrive spread over time, as across a slow link.
func paced(chunks, size int, gap time.Duration) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(chunks*size))
		buf := make([]byte, size)
		for range chunks {
			if _, err := w.Write(buf); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			time.Sleep(gap)
		}
	}))
}

func TestOmitLeavesOutTheFirstPart(t *testing.T) {
	const chunks, size = 30, 64 << 10
	ts := paced(chunks, size, 10*time.Millisecond)
	defer ts.Close()
	plan := Plan{URL: ts.URL + "/", Transfers: 1, Client: transport.ClientOptions{Protocol: transport.H1}, Timeout: time.Minute, Omit: 100 * time.Millisecond}
	res := run(t, plan)
	if res.Errors.Total != 0 || res.Bytes != chunks*size {
		t.Fatalf("moved %d bytes with %v (%s), want %d and none", res.Bytes, res.Errors, res.FirstError, chunks*size)
	}
	if res.SteadyNote != "" || res.SteadyBytes <= 0 || res.OmittedBytes <= 0 {
		t.Fatalf("steady %d bytes, omitted %d (%q): want both measured", res.SteadyBytes, res.OmittedBytes, res.SteadyNote)
	}
	if res.SteadyBytes+res.OmittedBytes != res.Bytes {
		t.Fatalf("steady %d + omitted %d bytes = %d, want every byte (%d)", res.SteadyBytes, res.OmittedBytes, res.SteadyBytes+res.OmittedBytes, res.Bytes)
	}
	// The steady part runs from the omit to the last byte: at most the
	// run's time less the omit, and it holds the chunks the omit did not.
	if res.OmitSeconds != 0.1 || res.SteadySeconds <= 0 || res.SteadySeconds > res.Seconds-0.1 {
		t.Fatalf("steady %.3f s of a %.3f s run with %.1f s omitted", res.SteadySeconds, res.Seconds, res.OmitSeconds)
	}
	if res.FirstByteSeconds <= 0 || res.FirstByteSeconds > 0.1 {
		t.Fatalf("first byte at %.3f s: want before the omit ended", res.FirstByteSeconds)
	}
}

func TestOmitLongerThanTheTransfer(t *testing.T) {
	ts := paced(3, 1<<10, 0)
	defer ts.Close()
	plan := Plan{URL: ts.URL + "/", Transfers: 1, Client: transport.ClientOptions{Protocol: transport.H1}, Timeout: time.Minute, Omit: time.Minute}
	res := run(t, plan)
	if res.Bytes != 3<<10 || res.SteadyBytes != 0 || res.SteadySeconds != 0 || !strings.Contains(res.SteadyNote, "ended within") {
		t.Fatalf("bytes %d, steady %d in %.3f s, note %q: want no steady figures and a note", res.Bytes, res.SteadyBytes, res.SteadySeconds, res.SteadyNote)
	}
}

func TestOmitUpload(t *testing.T) {
	f := startServer(t, 0)
	plan := f.plan(transport.H2C, "/sink")
	plan.Direction, plan.Size, plan.Omit = Upload, 64<<20, time.Millisecond
	res := run(t, plan)
	if res.Errors.Total != 0 || res.Bytes != 64<<20 {
		t.Fatalf("uploaded %d bytes with %v (%s)", res.Bytes, res.Errors, res.FirstError)
	}
	if res.SteadyBytes+res.OmittedBytes != res.Bytes || res.SteadyBytes <= 0 {
		t.Fatalf("steady %d + omitted %d bytes, want %d, the steady part non-empty (%q)", res.SteadyBytes, res.OmittedBytes, res.Bytes, res.SteadyNote)
	}
}
