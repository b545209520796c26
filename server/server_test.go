package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/units"
)

func do(t *testing.T, h http.Handler, method, target string, body io.Reader, header http.Header) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, body)
	for k, vs := range header {
		req.Header[k] = vs
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestBytesRoutes(t *testing.T) {
	s := New(Options{MaxSize: 10 * units.MB, WriteSize: 1000})
	h := s.Handler()
	tests := []struct {
		path   string
		status int
		n      int
	}{
		{"/bytes/0", 200, 0},
		{"/bytes/1", 200, 1},
		{"/bytes/2500", 200, 2500},
		{"/1m", 200, 1_000_000},
		{"/64Ki", 200, 65536},
		{"/10000000", 200, 10_000_000},
		{"/10000001", http.StatusRequestEntityTooLarge, -1},
		{"/bytes/1.5g", http.StatusBadRequest, -1},
		{"/favicon.ico", http.StatusBadRequest, -1},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			rec := do(t, h, "GET", tt.path, nil, nil)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.status, rec.Body)
			}
			if tt.n < 0 {
				if !strings.Contains(rec.Body.String(), "size") {
					t.Fatalf("error body does not say what was wrong: %q", rec.Body)
				}
				return
			}
			if rec.Body.Len() != tt.n || rec.Header().Get("Content-Length") != strconv.Itoa(tt.n) {
				t.Fatalf("body %d bytes, Content-Length %q, want %d", rec.Body.Len(), rec.Header().Get("Content-Length"), tt.n)
			}
		})
	}
	st := s.Stats().Protocols["h1"]
	if st.Requests != 6 || st.BodyBytesSent != 0+1+2500+1_000_000+65536+10_000_000 {
		t.Fatalf("counters %+v", st)
	}
	// 2500 bytes in 1000-byte chunks is 3 writes.
	if st.BodyWrites != 0+1+3+1000+66+10000 {
		t.Fatalf("body writes %d", st.BodyWrites)
	}
}

func TestSinkEchoSmall(t *testing.T) {
	s := New(Options{MaxSize: 1000})
	h := s.Handler()

	rec := do(t, h, "PUT", "/sink", strings.NewReader(strings.Repeat("x", 999)), nil)
	var sink sinkResult
	if err := json.Unmarshal(rec.Body.Bytes(), &sink); err != nil || rec.Code != 200 || sink.Bytes != 999 {
		t.Fatalf("sink: %d %s %v", rec.Code, rec.Body, err)
	}
	if rec := do(t, h, "POST", "/sink", strings.NewReader(strings.Repeat("x", 1001)), nil); rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("over-cap sink: %d %s", rec.Code, rec.Body)
	}

	hdr := http.Header{"X-A": {"12345"}, "X-Bb": {"1", "22"}}
	rec = do(t, h, "POST", "/echo", strings.NewReader("hello"), hdr)
	if rec.Body.String() != "hello" {
		t.Fatalf("echo body %q", rec.Body)
	}
	if rec.Header().Get(headerRequestHeaderCount) != "3" || rec.Header().Get(headerRequestHeaderBytes) != strconv.Itoa(3+5+4+1+4+2) {
		t.Fatalf("echo header counts %q %q", rec.Header().Get(headerRequestHeaderCount), rec.Header().Get(headerRequestHeaderBytes))
	}

	if rec := do(t, h, "GET", "/small", nil, nil); rec.Body.String() != "ok" {
		t.Fatalf("small %q", rec.Body)
	}
	if rec := do(t, h, "DELETE", "/small", nil, nil); rec.Code != http.StatusMethodNotAllowed {
		t.Fatalf("DELETE /small: %d", rec.Code)
	}
	// The 1001-byte upload declared its length: refused unread.
	st := s.Stats().Protocols["h1"]
	if st.Requests != 4 || st.BodyBytesReceived != 999+5 || st.Aborted != 1 {
		t.Fatalf("counters %+v", st)
	}
}

func TestStatsResetAndJSON(t *testing.T) {
	s := New(Options{})
	h := s.Handler()
	do(t, h, "GET", "/bytes/100", nil, nil)
	rec := do(t, h, "GET", "/stats", nil, nil)
	var st stats.ServerStats
	if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
		t.Fatalf("stats JSON: %v", err)
	}
	if st.Protocols["h1"].BodyBytesSent != 100 || st.Protocols["h1"].Requests != 1 {
		t.Fatalf("stats %+v", st.Protocols["h1"])
	}
	if st.Process.Goroutines <= 0 || st.Process.HeapInUseBytes <= 0 {
		t.Fatalf("process gauges missing: %+v", st.Process)
	}
	rec = do(t, h, "POST", "/stats/reset", nil, nil)
	if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil || st.Protocols["h1"].BodyBytesSent != 100 {
		t.Fatalf("reset did not return the counters before: %v %+v", err, st.Protocols["h1"])
	}
	if got := s.Stats().Protocols["h1"]; got.Requests != 0 || got.BodyBytesSent != 0 {
		t.Fatalf("after reset: %+v", got)
	}
	do(t, h, "GET", "/bytes/7", nil, nil)
	if got := s.Stats().Protocols["h1"]; got.Requests != 1 || got.BodyBytesSent != 7 {
		t.Fatalf("after reset and one request: %+v", got)
	}
}

func TestProfilingRoutes(t *testing.T) {
	if rec := do(t, New(Options{}).Handler(), "POST", "/debug/profile/start", nil, nil); rec.Code == 204 {
		t.Fatal("profiling served without Options.Profiling")
	}
	h := New(Options{Profiling: true}).Handler()
	if rec := do(t, h, "POST", "/debug/profile/stop", nil, nil); rec.Code != 409 {
		t.Fatalf("stop before start: %d", rec.Code)
	}
	if rec := do(t, h, "POST", "/debug/profile/start", nil, nil); rec.Code != 204 {
		t.Fatalf("start: %d %s", rec.Code, rec.Body)
	}
	if rec := do(t, h, "POST", "/debug/profile/start", nil, nil); rec.Code != 409 {
		t.Fatalf("second start: %d", rec.Code)
	}
	rec := do(t, h, "POST", "/debug/profile/stop", nil, nil)
	// pprof's format is gzipped protobuf.
	if rec.Code != 200 || rec.Body.Len() < 2 || rec.Body.Bytes()[0] != 0x1f || rec.Body.Bytes()[1] != 0x8b {
		t.Fatalf("stop: %d, %d bytes", rec.Code, rec.Body.Len())
	}
	if rec := do(t, h, "GET", "/debug/profile/heap", nil, nil); rec.Code != 200 || rec.Body.Len() == 0 {
		t.Fatalf("heap: %d, %d bytes", rec.Code, rec.Body.Len())
	}
}

// untouchable fails the test that reads it.
type untouchable struct{ t *testing.T }

func (u untouchable) Read([]byte) (int, error) {
	u.t.Error("an upload whose declared length is over the limit was read")
	return 0, io.EOF
}

// TestSinkRefusesDeclaredOversize: an upload whose Content-Length is over
// the limit gets 413 before a byte of it is read.
func TestSinkRefusesDeclaredOversize(t *testing.T) {
	s := New(Options{MaxSize: 1000})
	req := httptest.NewRequest("PUT", "/sink", untouchable{t})
	req.ContentLength = 2_000_000_000_000
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), "2000000000000 bytes") {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if st := s.Stats().Protocols["h1"]; st.Aborted != 1 || st.BodyBytesReceived != 0 {
		t.Fatalf("counted %+v", st)
	}
}
