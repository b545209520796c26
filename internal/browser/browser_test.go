package browser

import (
	"context"
	"crypto/x509"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/pagesite"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/stats"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/webpage"
)

// requireChromium skips the test when Chromium is not installed, unless
// CI=true (CI installs it: .ci/run).
func requireChromium(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("a browser: not under -short")
	}
	if _, err := Find(""); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and %v", err)
		}
		t.Skip(err)
	}
}

// ownTemp points the browser's profile directories at a directory of the
// test's own, and returns it: every browser the test starts has it in its
// command line, so leftovers finds them and no other program's.
func ownTemp(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	return dir
}

// leftovers fails the test if a process started with dir in its command
// line still runs, or dir still holds a profile directory.
func leftovers(t *testing.T, dir string) {
	t.Helper()
	if pids := Running(dir); len(pids) > 0 {
		t.Errorf("browser processes left running: %v", pids)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "httpvs-browser-") {
			t.Errorf("profile directory left behind: %s", e.Name())
		}
	}
}

// TestLoadPageOverEachTransport loads page-load's page from a real
// httpvs server over each transport a browser speaks and checks every
// object against the server's own counters: 50 objects, each over the
// transport named; h1 and h1-tls on at most 6 connections, h2 and h3 on
// exactly one.
func TestLoadPageOverEachTransport(t *testing.T) {
	requireChromium(t)
	tmp := ownTemp(t)
	srv, err := server.Start(server.Config{Transport: server.Loopback()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cert, err := x509.ParseCertificate(srv.Transport.Cert().Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	page := webpage.Median()
	for _, p := range []transport.Protocol{transport.H1, transport.H1TLS, transport.H2, transport.H3} {
		t.Run(p.String(), func(t *testing.T) {
			srv.Server.Reset()
			base := srv.Transport.URL(p)
			if p == transport.H3 {
				base = srv.Transport.URL(transport.H2) // the same port number, over UDP
			}
			load, err := LoadPage(context.Background(), base+pagesite.DocumentPath, Options{Protocol: p, TrustSPKI: []string{SPKIHash(cert)}})
			if err != nil {
				t.Fatal(err)
			}
			st := srv.Server.Stats()
			if len(load.Objects) != len(page.Objects) || load.Failed() != 0 {
				t.Fatalf("%d objects, %d failed; want %d loaded", len(load.Objects), load.Failed(), len(page.Objects))
			}
			checkObjectsOver(t, load, p)
			checkServerCounted(t, st, load, page, p)
			if load.LoadEvent <= 0 || load.LastByte <= 0 || !strings.Contains(load.Browser, "/") {
				t.Errorf("load event %v, last byte %v, browser %q", load.LoadEvent, load.LastByte, load.Browser)
			}
			leftovers(t, tmp)
		})
	}
}

// checkObjectsOver checks that every object of load came over p with
// status 200 and finished.
func checkObjectsOver(t *testing.T, load *PageLoad, p transport.Protocol) {
	t.Helper()
	for i, o := range load.Objects {
		if o.Transport() != p.String() || o.Status != 200 || o.Finished <= 0 {
			t.Errorf("object %d %s: over %q (%s), status %d, finished %v", i, o.URL, o.Transport(), o.Protocol, o.Status, o.Finished)
		}
	}
}

// checkServerCounted checks the server's counters against load over p:
// every one of page's requests and body bytes over p and none over any
// other transport, the browser's connections, and at most 6 of them for
// h1 and h1-tls, exactly one for h2 and h3.
func checkServerCounted(t *testing.T, st stats.ServerStats, load *PageLoad, page webpage.Page, p transport.Protocol) {
	t.Helper()
	for name, c := range st.Protocols {
		want := int64(0)
		if name == p.String() {
			want = int64(len(page.Objects))
		}
		if c.Requests != want {
			t.Errorf("server counted %d requests over %s, want %d", c.Requests, name, want)
		}
	}
	own := st.Protocols[p.String()]
	if own.BodyBytesSent != page.Bytes() {
		t.Errorf("server sent %d body bytes, want %d", own.BodyBytesSent, page.Bytes())
	}
	if own.Connections != int64(load.Connections()) {
		t.Errorf("server counted %d connections, the browser %d", own.Connections, load.Connections())
	}
	switch p {
	case transport.H2, transport.H3:
		if own.Connections != 1 {
			t.Errorf("%d connections, want 1", own.Connections)
		}
	default:
		if own.Connections < 1 || own.Connections > 6 {
			t.Errorf("%d connections, want 1 to 6", own.Connections)
		}
	}
}

func TestFindNamesThePackage(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := Find("")
	var nf *NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "apt-get install chromium") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("Find with no browser on PATH: %v; want one line naming the package", err)
	}
	_, err = LoadPage(context.Background(), "http://127.0.0.1:1/page/", Options{Path: "/nonexistent/chromium"})
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "/nonexistent/chromium") {
		t.Fatalf("LoadPage with a missing browser: %v", err)
	}
}

// fakeBrowser writes an executable script standing in for Chromium.
func fakeBrowser(t *testing.T, script string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "chromium")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBrowserThatCrashes: a browser that exits at once is an *ExitError
// in one line with what it said; one that hangs is ended at the timeout,
// with every process it started; neither leaves a profile behind.
func TestBrowserThatCrashes(t *testing.T) {
	tmp := ownTemp(t)
	crash := fakeBrowser(t, `echo "[0101/000000:FATAL:zygote_host_impl_linux.cc] No usable sandbox" >&2; exit 1`)
	_, err := LoadPage(context.Background(), "http://127.0.0.1:1/page/", Options{Path: crash, Timeout: 20 * time.Second})
	var ee *ExitError
	if !errors.As(err, &ee) || !strings.Contains(err.Error(), "No usable sandbox") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("crashing browser: %v; want one line with its last words", err)
	}
	leftovers(t, tmp)

	// It forks a child that would outlive it, and never answers.
	hang := fakeBrowser(t, `sleep 60 & sleep 60`)
	began := time.Now()
	_, err = LoadPage(context.Background(), "http://127.0.0.1:1/page/", Options{Path: hang, Timeout: time.Second})
	if err == nil || !strings.Contains(err.Error(), "did not load") || time.Since(began) > 15*time.Second {
		t.Fatalf("hanging browser: %v after %v", err, time.Since(began))
	}
	leftovers(t, tmp)
}

func TestOptionsRefuse(t *testing.T) {
	for _, c := range []struct {
		url  string
		p    transport.Protocol
		want string
	}{
		{"http://127.0.0.1:1/", transport.H2C, "h2c"},
		{"http://127.0.0.1:1/", transport.H2, "https://"},
		{"https://127.0.0.1:1/", transport.H1, "http://"},
		{"127.0.0.1:1", transport.H3, "want http"},
	} {
		_, err := LoadPage(context.Background(), c.url, Options{Protocol: c.p})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s over %v: %v; want %q", c.url, c.p, err, c.want)
		}
	}
}

func TestObjectTransport(t *testing.T) {
	for _, c := range []struct{ url, proto, want string }{
		{"https://x/", "http/1.1", "h1-tls"},
		{"http://x/", "http/1.1", "h1"},
		{"https://x/", "h2", "h2"},
		{"https://x/", "h3", "h3"},
		{"https://x/", "", ""},
	} {
		if got := (Object{URL: c.url, Protocol: c.proto}).Transport(); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.url, c.proto, got, c.want)
		}
	}
}
