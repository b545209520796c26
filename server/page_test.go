package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/pagesite"
	"github.com/httpvs/httpvs/webpage"
)

// get answers GET path from h and returns the status, Content-Type and
// body.
func get(t *testing.T, h http.Handler, path string) (int, string, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, rec.Header().Get("Content-Type"), string(body)
}

// TestPageServesPageLoadsPage: GET /page/ is the document, each object it
// names is served at its size with its kind's type, and each is counted.
func TestPageServesPageLoadsPage(t *testing.T) {
	s := New(Options{})
	h := s.Handler()
	page := webpage.Median()
	var total int64
	for i, o := range page.Objects {
		code, ctype, body := get(t, h, pagesite.ObjectURL(page, i))
		if code != 200 || int64(len(body)) != o.Bytes {
			t.Fatalf("object %d (%s): %d, %d bytes; want 200, %d", i, pagesite.ObjectURL(page, i), code, len(body), o.Bytes)
		}
		want := pagesite.Synthetic(o.Kind, o.Bytes).Type
		if i == 0 {
			want = "text/html; charset=utf-8"
		}
		if ctype != want {
			t.Errorf("object %d: Content-Type %q, want %q", i, ctype, want)
		}
		total += int64(len(body))
	}
	st := s.Stats().Protocols["h1"]
	if st.Requests != int64(len(page.Objects)) || st.BodyBytesSent != total {
		t.Errorf("counted %d requests, %d bytes; want %d, %d", st.Requests, st.BodyBytesSent, len(page.Objects), total)
	}
	for _, path := range []string{"/page/50.bin", "/page/1.js", "/page/../stats", "/page/x"} {
		if code, _, _ := get(t, h, path); code != http.StatusNotFound && code/100 != 3 {
			t.Errorf("GET %s: %d, want 404 (or a redirect to the cleaned path)", path, code)
		}
	}
}

// TestPageServesADirectory: a directory page's index.html is the
// document, its files are under /page/, and nothing outside it is.
func TestPageServesADirectory(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "site")
	os.MkdirAll(filepath.Join(dir, "css"), 0o755)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte(`<link rel="stylesheet" href="css/a.css">`), 0o644)
	os.WriteFile(filepath.Join(dir, "css", "a.css"), []byte("body{}"), 0o644)
	os.WriteFile(filepath.Join(root, "secret"), []byte("no"), 0o644)
	os.Symlink(filepath.Join(root, "secret"), filepath.Join(dir, "link"))
	os.WriteFile(filepath.Join(dir, ".env"), []byte("no"), 0o644)
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("no"), 0o644)
	os.WriteFile(filepath.Join(dir, "css", ".htpasswd"), []byte("no"), 0o644)
	page, err := webpage.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range page.Objects {
		if strings.Contains("/"+o.Path, "/.") {
			t.Errorf("the page lists %s, a dotfile", o.Path)
		}
	}
	s := New(Options{Page: &page})
	if err := s.pageError(); err != nil {
		t.Fatal(err)
	}
	h := s.Handler()
	if code, ctype, body := get(t, h, "/page/"); code != 200 || !strings.HasPrefix(ctype, "text/html") || !strings.Contains(body, "a.css") {
		t.Errorf("GET /page/: %d %q %q", code, ctype, body)
	}
	if code, ctype, body := get(t, h, "/page/css/a.css"); code != 200 || !strings.HasPrefix(ctype, "text/css") || body != "body{}" {
		t.Errorf("GET /page/css/a.css: %d %q %q", code, ctype, body)
	}
	for _, path := range []string{"/page/link", "/page/../secret", "/page/css/../../secret", "/page/nope",
		"/page/.env", "/page/.git/config", "/page/css/.htpasswd", "/page/css/../.env"} {
		if code, _, body := get(t, h, path); code == 200 || body == "no" {
			t.Errorf("GET %s: %d %q; want it refused", path, code, body)
		}
	}
	if got := s.Stats().Protocols["h1"].Requests; got != 2 {
		t.Errorf("counted %d requests, want 2", got)
	}
	gone := webpage.Page{Objects: page.Objects, Dir: filepath.Join(root, "gone"), Source: "gone"}
	if _, err := Start(Config{Options: Options{Page: &gone}, Transport: Loopback()}); err == nil {
		t.Error("Start with a page directory that is gone: no error")
	}
}
