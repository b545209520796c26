package server

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// countingReader counts what is read of it: n bytes of 'x'.
type countingReader struct {
	n, read int64
}

func (r *countingReader) Read(p []byte) (int, error) {
	if r.read >= r.n {
		return 0, io.EOF
	}
	k := min(int64(len(p)), r.n-r.read)
	r.read += k
	return int(k), nil
}

// TestEchoRefusesDeclaredOversize sends /echo a body declared 1 GB: it is
// answered 413 with not a byte of it read; one of unknown length is read
// only up to the limit and a byte.
func TestEchoRefusesDeclaredOversize(t *testing.T) {
	s := New(Options{})
	h := s.Handler()
	body := &countingReader{n: int64(units.GB)}
	req, _ := http.NewRequest(http.MethodPost, "/echo", body)
	req.ContentLength = body.n
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge || body.read != 0 || !strings.Contains(rec.Body.String(), "1000000000 bytes") {
		t.Fatalf("status %d after reading %d bytes: %s", rec.Code, body.read, rec.Body)
	}
	chunked := &countingReader{n: 4 * int64(defaults.MaxEcho)}
	req, _ = http.NewRequest(http.MethodPost, "/echo", io.MultiReader(chunked)) // length unknown
	req.ContentLength = -1
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge || chunked.read > int64(defaults.MaxEcho)+echoChunk {
		t.Fatalf("unknown length: status %d after reading %d bytes, want 413 by %d", rec.Code, chunked.read, int64(defaults.MaxEcho)+echoChunk)
	}
	if used := s.buffered.used.Load(); used != 0 {
		t.Fatalf("%d bytes still reserved after both answers", used)
	}
}

// TestEchoBudget holds one echo's body half-sent so that its bytes are
// reserved: a second that would pass the server-wide budget is answered
// 503 with the reason, and once the first is done the second fits.
func TestEchoBudget(t *testing.T) {
	srv, err := Start(Config{Options: Options{MaxEcho: 64 * units.KiB, MaxBuffered: 100 * units.KiB}, Transport: Loopback()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	url := srv.Transport.URL(transport.H1) + "/echo"
	pr, pw := io.Pipe()
	first, err := http.NewRequest(http.MethodPost, url, pr)
	if err != nil {
		t.Fatal(err)
	}
	first.ContentLength = 60 << 10
	done := make(chan *http.Response, 1)
	go func() {
		resp, err := http.DefaultClient.Do(first)
		if err != nil {
			t.Error(err)
		}
		done <- resp
	}()
	pw.Write(bytes.Repeat([]byte("a"), 1<<10))
	for deadline := time.Now().Add(10 * time.Second); srv.Server.buffered.used.Load() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the first echo's body was never reserved")
		}
	}
	post := func() (int, string) {
		resp, err := http.Post(url, "application/octet-stream", bytes.NewReader(make([]byte, 60<<10)))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, msg := post(); code != http.StatusServiceUnavailable || !strings.Contains(msg, "60.0 KiB of request bodies in memory, its limit 100.0 KiB") {
		t.Fatalf("second echo beside the first: %d %q, want 503 with the reason", code, msg)
	}
	pw.Write(bytes.Repeat([]byte("a"), 59<<10))
	pw.Close()
	resp := <-done
	if resp == nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("first echo: %v", resp)
	}
	n, _ := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if n != 60<<10 {
		t.Fatalf("first echo returned %d bytes", n)
	}
	if code, msg := post(); code != http.StatusOK {
		t.Fatalf("second echo alone: %d %q", code, msg)
	}
}

// TestEchoManyConcurrent sends a hundred 30 KB echoes at once: all are
// answered, in full, within the default budget.
func TestEchoManyConcurrent(t *testing.T) {
	srv, err := Start(Config{Transport: Loopback()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, err := transport.NewClient(transport.ClientOptions{Protocol: transport.H2C})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	url := srv.Transport.URL(transport.H2C) + "/echo"
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 100 {
		wg.Go(func() {
			body := bytes.Repeat([]byte{byte('a' + i%26)}, 30_000)
			resp, err := c.HTTP().Post(url, "application/octet-stream", bytes.NewReader(body))
			if err != nil {
				errs <- err
				return
			}
			defer resp.Body.Close()
			got, err := io.ReadAll(resp.Body)
			if err != nil || resp.StatusCode != http.StatusOK || !bytes.Equal(got, body) {
				errs <- fmt.Errorf("echo %d: status %d, %d bytes back, %v", i, resp.StatusCode, len(got), err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	st := srv.Server.Stats().Protocols["h2c"]
	if st.Requests != 100 || st.BodyBytesReceived != 3_000_000 || st.BodyBytesSent != 3_000_000 {
		t.Errorf("counters %+v, want 100 requests and 3,000,000 bytes each way", st)
	}
}
