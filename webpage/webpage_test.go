package webpage

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMedianPage(t *testing.T) {
	p := Median()
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(p.Objects) != 50 || p.Bytes() != 704512 {
		t.Fatalf("Median: %d objects, %d bytes; want 50 and 704512", len(p.Objects), p.Bytes())
	}
}

func TestFromDir(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, size int) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), bytes.Repeat([]byte("x"), size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.html", 100)
	write("css/site.css", 10)
	write("app.js", 20)
	write("img/a b.png", 30)
	p, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Object{{Kind: KindHTML, Bytes: 100, Path: "index.html"}, {Kind: KindJS, Bytes: 20, Path: "app.js"}, {Kind: KindCSS, Bytes: 10, Path: "css/site.css"}, {Kind: KindImage, Bytes: 30, Path: "img/a b.png"}}
	if len(p.Objects) != len(want) {
		t.Fatalf("objects %v, want %v", p.Objects, want)
	}
	for i := range want {
		if p.Objects[i] != want[i] {
			t.Errorf("object %d: %+v, want %+v", i, p.Objects[i], want[i])
		}
	}
	if p.Dir != dir {
		t.Errorf("Dir %q, want %q", p.Dir, dir)
	}
}

func TestReadRefusesInOneLine(t *testing.T) {
	dir := t.TempDir()
	noIndex := filepath.Join(dir, "empty")
	os.Mkdir(noIndex, 0o755)
	notHAR := filepath.Join(dir, "page.har")
	os.WriteFile(notHAR, []byte("<html>"), 0o644)
	noDoc := filepath.Join(dir, "nodoc.har")
	os.WriteFile(noDoc, []byte(`{"log":{"entries":[{"request":{"url":"http://x/a.js"},"response":{"status":200,"content":{"size":5,"mimeType":"text/javascript"}}}]}}`), 0o644)
	for name, want := range map[string]string{
		filepath.Join(dir, "missing"): "no such file",
		noIndex:                       "has no index.html",
		notHAR:                        "is not a HAR file",
		noDoc:                         "no HTML document",
	} {
		_, err := Read(name)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Read(%s) = %v; want one line with %q", name, err, want)
		}
	}
}

func TestFromHAR(t *testing.T) {
	har := `{"log":{"entries":[
	 {"request":{"url":"https://a.example/x.js?v=1"},"response":{"status":200,"bodySize":700,"content":{"size":2000,"mimeType":""}}},
	 {"request":{"url":"https://a.example/"},"response":{"status":200,"bodySize":5000,"content":{"size":15000,"mimeType":"text/html; charset=utf-8"}}},
	 {"request":{"url":"https://a.example/r"},"response":{"status":301,"bodySize":0,"content":{"size":0,"mimeType":"text/html"}}},
	 {"request":{"url":"https://cdn.example/s.css"},"response":{"status":200,"bodySize":300,"content":{"size":0,"mimeType":"text/css"}}},
	 {"request":{"url":"https://cdn.example/f"},"response":{"status":200,"bodySize":10,"content":{"size":20000,"mimeType":"font/woff2"}}},
	 {"request":{"url":"https://cdn.example/i"},"response":{"status":200,"bodySize":10,"content":{"size":900,"mimeType":"image/webp"}}},
	 {"request":{"url":"https://ads.example/frame"},"response":{"status":200,"bodySize":10,"content":{"size":400,"mimeType":"text/html"}}}
	]}}`
	p, err := parseHAR([]byte(har), "t.har")
	if err != nil {
		t.Fatal(err)
	}
	want := []Object{{Kind: KindHTML, Bytes: 15000}, {Kind: KindJS, Bytes: 2000}, {Kind: KindCSS, Bytes: 300}, {Kind: KindFont, Bytes: 20000}, {Kind: KindImage, Bytes: 900}, {Kind: KindOther, Bytes: 400}}
	if len(p.Objects) != len(want) {
		t.Fatalf("objects %+v, want %+v", p.Objects, want)
	}
	for i := range want {
		if p.Objects[i] != want[i] {
			t.Errorf("object %d: %+v, want %+v", i, p.Objects[i], want[i])
		}
	}
	if err := p.Validate(); err != nil {
		t.Error(err)
	}
}

// FuzzParseHAR checks that no input panics the HAR reader, and that what
// it accepts is a valid page.
func FuzzParseHAR(f *testing.F) {
	f.Add([]byte(`{"log":{"entries":[{"request":{"url":"http://x/"},"response":{"status":200,"content":{"size":10,"mimeType":"text/html"}}}]}}`))
	f.Add([]byte(`{"log":{"entries":[{"response":{"status":200,"bodySize":-5,"content":{"size":-1,"mimeType":"image/png"}}}]}}`))
	f.Add([]byte(`{"log":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := parseHAR(data, "f.har")
		if err != nil {
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted an invalid page: %v", err)
		}
	})
}

// TestDirPageObjectsHavePaths: a page served from a directory names each
// object's file; one without a path is refused, as Read never makes one.
func TestDirPageObjectsHavePaths(t *testing.T) {
	p := Page{Source: "x", Dir: t.TempDir(), Objects: []Object{{Kind: KindHTML, Bytes: 10, Path: "index.html"}, {Kind: KindCSS, Bytes: 4}}}
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "object 1 has no path") {
		t.Fatalf("Validate = %v, want object 1's missing path", err)
	}
	p.Objects[1].Path = "a.css"
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
}
