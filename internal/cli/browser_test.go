package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/browser"
	"github.com/httpvs/httpvs/results"
)

// needChromium skips the test when Chromium is not installed, unless
// CI=true (CI installs it: .ci/run).
func needChromium(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("a browser: not under -short")
	}
	if _, err := browser.Find(""); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and %v", err)
		}
		t.Skip(err)
	}
}

// browserTemp points this process's browsers' profile directories at a
// directory of the test's own (browserDir).
func browserTemp(t *testing.T) {
	t.Helper()
	t.Setenv("TMPDIR", browserDir(t))
}

// browserDir is a directory for the browsers' profile directories (their
// TMPDIR): when the test ends, it fails if a process started with it in
// its command line still runs.
func browserDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Cleanup(func() {
		if pids := browser.Running(dir); len(pids) > 0 {
			t.Errorf("browser processes left running: %v", pids)
		}
	})
	return dir
}

// runMainProcess runs this test binary as httpvs with args, a process of
// its own with env added to this one's (the browsers' TMPDIR; a link's
// threads, descriptors and child server its own, apart from this
// process's), and returns its exit code and output.
func runMainProcess(t *testing.T, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), mainEnv+"=1"), env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, out.String(), errOut.String()
}

// lines are s's non-empty lines.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestRunBrowser runs page-load and the real browser over h1-tls and h3
// on loopback: two rows, every object over the transport named, the
// server's counts beside the browser's, h1-tls on at most 6 connections
// and h3 on one. (h2's row is TestRunBrowserAcrossLink's; every
// transport's loads are internal/matrix's TestBrowserBesidePageLoad.)
func TestRunBrowser(t *testing.T) {
	t.Parallel() // see TestMain: a process of its own, its own TMPDIR
	needChromium(t)
	tmp := "TMPDIR=" + browserDir(t)
	out := t.TempDir()
	code, stdout, stderr := runMainProcess(t, []string{tmp}, "run", "--browser", "--protocols", "h1-tls,h3", "--quick", "--repeat", "2", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "browser-page-load: page-load's page") || !strings.Contains(stdout, " in Chrome/") {
		t.Fatalf("no browser table in:\n%s", stdout)
	}
	if want := "50 over h3 on 1 connection (50, 1)"; !strings.Contains(stdout, want) {
		t.Errorf("no %q in:\n%s", want, stdout)
	}
	if strings.Contains(stdout, "disagree") {
		t.Errorf("the browser and the server disagree:\n%s", stdout)
	}
	res, _ := readResults(t, out)
	if len(res.Cells) != 2 || res.Cells[0].Scenario != "page-load" {
		t.Errorf("cells %d, first %q: want page-load alone beside the browser", len(res.Cells), res.Cells[0].Scenario)
	}
	if len(res.Browser) != 2 {
		t.Errorf("%d browser cells, want h1-tls's and h3's", len(res.Browser))
	}
	for _, c := range res.Browser {
		checkLoopbackBrowserCell(t, c)
	}
}

// checkLoopbackBrowserCell checks one transport's loads of TestRunBrowser:
// two, held to the baseline (h1-tls, h1 not being asked for) and not to
// the model, the server counting one connection (up to six for h1-tls).
func checkLoopbackBrowserCell(t *testing.T, c results.BrowserCell) {
	t.Helper()
	if len(c.Loads) != 2 || c.Model != nil || (c.Protocol != "h1-tls" && (c.VsBaseline == nil || c.Baseline != "h1-tls")) {
		t.Errorf("%s: %d loads, model %v, vs %q %v (skipped %q)", c.Protocol, len(c.Loads), c.Model, c.Baseline, c.VsBaseline, c.Skipped)
		return
	}
	for _, ld := range c.Loads {
		if ld.ServerConnections == nil || *ld.ServerConnections < 1 || *ld.ServerConnections > 6 || (c.Protocol != "h1-tls" && *ld.ServerConnections != 1) {
			t.Errorf("%s round %d: the server counted %v connections", c.Protocol, ld.Round, ld.ServerConnections)
		}
	}
}

// TestRunBrowserAcrossLink loads the page with the browser in the link's
// client namespace: it reaches the server only across the link.
func TestRunBrowserAcrossLink(t *testing.T) {
	t.Parallel() // see TestMain: a process of its own, its own TMPDIR
	needLink(t)
	needChromium(t)
	tmp := "TMPDIR=" + browserDir(t)
	out := t.TempDir()
	code, stdout, stderr := runMainProcess(t, []string{tmp}, "run", "--browser", "--net", "rtt=40ms", "--protocols", "h2", "--repeat", "1", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "50 over h2 on 1 connection (50, 1)") {
		t.Errorf("no page loaded over h2 on one connection in:\n%s", stdout)
	}
	res, _ := readResults(t, out)
	if len(res.Browser) != 1 || len(res.Browser[0].Loads) != 1 {
		t.Fatalf("browser cells %+v", res.Browser)
	}
	ld := res.Browser[0].Loads[0]
	// Across a 40 ms link a page load takes a handful of round trips; on
	// this machine's loopback it takes a few milliseconds of network.
	if ld.LastByteSeconds < 4*0.040 || ld.Link == nil || ld.Link.Down.Bytes < 700000 {
		t.Errorf("the load did not cross the link: last byte %.3fs, link %+v", ld.LastByteSeconds, ld.Link)
	}
}

// TestRunBrowserChromiumMissing: without Chromium, --browser is one line
// naming the package, and the run goes on without it.
func TestRunBrowserChromiumMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	code, stdout, stderr := runMain(t, "run", "--browser", "--protocols", "h1", "--quick", "--no-files")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := lines(stderr); len(got) != 1 || !strings.Contains(got[0], "apt-get install chromium") {
		t.Errorf("stderr %q: want one line naming the package", stderr)
	}
	if !strings.Contains(stdout, "page-load") || strings.Contains(stdout, "browser-page-load") {
		t.Errorf("want page-load without the browser:\n%s", stdout)
	}
}

// TestBrowserBadInput: bad input is one line and exit 2 (a usage error)
// or 1 (a browser that crashes), with nothing left running.
func TestBrowserBadInput(t *testing.T) {
	browserTemp(t)
	dir := t.TempDir()
	crash := filepath.Join(dir, "chromium")
	if err := os.WriteFile(crash, []byte("#!/bin/sh\necho 'Trace/breakpoint trap: chromium crashed' >&2\nkill -SEGV $$\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	unreadable := filepath.Join(dir, "unreadable")
	os.Mkdir(unreadable, 0o755)
	notHAR := filepath.Join(dir, "page.har")
	os.WriteFile(notHAR, []byte("{"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", "--browser", "--page", filepath.Join(dir, "missing")}, exitUsage, "--page: read page"},
		{[]string{"run", "--browser", "--page", unreadable}, exitUsage, "has no index.html"},
		{[]string{"run", "--browser", "--page", notHAR}, exitUsage, "is not a HAR file"},
		{[]string{"run", "--page", notHAR}, exitUsage, "go with --browser"},
		{[]string{"run", "--browser", "--chromium", filepath.Join(dir, "nope")}, exitUsage, "--chromium"},
		{[]string{"serve", "--page", filepath.Join(dir, "missing")}, exitUsage, "--page: read page"},
		{[]string{"run", "--browser", "--chromium", crash, "--protocols", "h1-tls,h2", "--quick", "--no-files"}, exitFailure, "--browser over h1-tls: browser exited before the page loaded: signal: segmentation fault: Trace/breakpoint trap: chromium crashed"},
	} {
		code, _, stderr := runMain(t, c.args...)
		got := lines(stderr)
		if code != c.code || len(got) != 1 || !strings.Contains(got[0], c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and one line with %q", c.args, code, stderr, c.code, c.want)
		}
	}
}
