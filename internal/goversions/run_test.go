package goversions

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// cacheDir is the tests' binary cache: one build per toolchain for the
// whole package, removed at its end.
var cacheDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "httpvs-goversions-test-*")
	if err != nil {
		panic(err)
	}
	cacheDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// installedVersion is what `go version` says the go command on PATH is.
func installedVersion(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("go", "version")
	cmd.Env = goEnv("local")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	f := strings.Fields(string(out)) // go version go1.26.8 linux/amd64
	if len(f) < 3 {
		t.Fatalf("go version said %q", out)
	}
	return f[2]
}

// TestInstalledChild builds the program with the go on PATH, starts it as
// server and client, and checks what a round reports: the bytes asked
// for, the protocol asked for, and the toolchain's own version.
func TestInstalledChild(t *testing.T) {
	want := installedVersion(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// A binary of another source, left by an earlier httpvs, goes.
	stale := filepath.Join(cacheDir, want, "child-000000000000")
	if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	bin, err := Build(ctx, Installed, cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale binary: %v, want it removed", err)
	}
	if bin.Toolchain != want || filepath.Base(filepath.Dir(bin.Path)) != want {
		t.Fatalf("built by %q into %s, want %q", bin.Toolchain, bin.Path, want)
	}
	again, err := Build(ctx, Installed, cacheDir)
	if err != nil || !again.Cached || again.Path != bin.Path {
		t.Fatalf("second build = %+v, %v; want the cached binary", again, err)
	}
	srv, err := startChild(ctx, bin.Path, "serve", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.stop()
	cl, err := startChild(ctx, bin.Path, "client", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.stop()
	if srv.hello.Go != want || cl.hello.Go != want {
		t.Fatalf("server says %q, client %q: want %q", srv.hello.Go, cl.hello.Go, want)
	}
	for _, p := range []transport.Protocol{transport.H1, transport.H2C, transport.H1TLS, transport.H2} {
		t.Run(p.String(), func(t *testing.T) { checkRounds(ctx, t, srv, cl, p) })
	}
	// A server gone: the client's round fails with the error, not a hang.
	srv.stop()
	res, err := cl.do(ctx, round{Scenario: Download, Protocol: "h1", URL: srv.hello.Plain, Size: 10}, time.Minute)
	if err != nil || res.Errors != 1 || res.FirstError == "" {
		t.Fatalf("against a stopped server: %+v, %v; want one failed request", res, err)
	}
}

// checkRounds runs a download and a small-sequential round over p and
// checks their counts exactly.
func checkRounds(ctx context.Context, t *testing.T, srv, cl *child, p transport.Protocol) {
	const size = 3*units.MiB + 7
	rd := round{Scenario: Download, Protocol: p.String(), URL: srv.hello.Plain, Size: int64(size)}
	if p.TLS() {
		rd.URL, rd.CertPEM = srv.hello.TLS, srv.hello.CertPEM
	}
	res, err := cl.do(ctx, rd, time.Minute)
	if err != nil || res.Errors != 0 || res.Bytes != int64(size) || res.Requests != 1 || res.Value <= 0 {
		t.Fatalf("download: %+v, %v; want %d bytes in one request", res, err, int64(size))
	}
	wantProto := map[bool]string{false: "HTTP/1.1", true: "HTTP/2.0"}[p == transport.H2C || p == transport.H2]
	if res.Negotiated != wantProto {
		t.Errorf("came over %s, want %s", res.Negotiated, wantProto)
	}
	rd.Scenario, rd.Duration = SmallSequential, 50*time.Millisecond
	res, err = cl.do(ctx, rd, time.Minute)
	if err != nil || res.Errors != 0 || res.Requests == 0 || res.Bytes != 2*res.Requests {
		t.Fatalf("small-sequential: %+v, %v; want 2 bytes per request", res, err)
	}
}

// TestUnfetchableVersion asks for a toolchain the module proxy does not
// have beside the installed one: it gets one line saying which and why,
// and the installed one is measured.
func TestUnfetchableVersion(t *testing.T) {
	want := installedVersion(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	gv, err := Run(ctx, Options{
		Versions: []string{"go1.99.0", Installed}, Scenarios: []string{Download, "upload"},
		Protocols: []transport.Protocol{transport.H1, transport.H2C, transport.H3},
		Rounds:    2, MaxRounds: 2, Duration: 50 * time.Millisecond, Size: 2 * units.MiB, CacheDir: cacheDir, BuildTimeout: 2 * time.Minute,
	})
	if err != nil {
		t.Fatal(err)
	}
	bad, good := gv.Toolchains[0], gv.Toolchains[1]
	if bad.Asked != "go1.99.0" || !strings.HasPrefix(bad.Error, StageFetch+": ") || strings.Contains(bad.Error, "\n") {
		t.Errorf("go1.99.0: %+v; want one line starting %q", bad, StageFetch+": ")
	}
	if good.Error != "" || good.Toolchain != want || good.BinaryGo != want {
		t.Errorf("installed: %+v; want %s measured", good, want)
	}
	if len(gv.Cells) != 2 {
		t.Fatalf("%d cells, want download over h1 and h2c", len(gv.Cells))
	}
	checkInstalledCells(t, gv.Cells, want)
	if len(gv.Changes) != 0 || len(gv.NotMeasured) != 2 {
		t.Errorf("changes %v (want none: one toolchain measured); not measured %q (want upload and h3)", gv.Changes, gv.NotMeasured)
	}
}

// checkInstalledCells checks the cells of TestUnfetchableVersion's
// installed toolchain, want: two rounds each without errors, every
// repetition 2 MiB over the transport asked for, and h2c's ratio to h1
// over both.
func checkInstalledCells(t *testing.T, cells []results.GoVersionCell, want string) {
	t.Helper()
	for _, c := range cells {
		if c.Toolchain != want || len(c.Repetitions) != 2 || c.Errors.Total != 0 {
			t.Errorf("%s %s: %d repetitions, errors %+v", c.Toolchain, c.Protocol, len(c.Repetitions), c.Errors)
		}
		for _, rep := range c.Repetitions {
			if rep.Bytes != int64(2*units.MiB) || rep.SizeBytes != rep.Bytes || rep.Negotiated != c.Protocol {
				t.Errorf("%s repetition %d: %d bytes of %d over %s", c.Protocol, rep.Round, rep.Bytes, rep.SizeBytes, rep.Negotiated)
			}
		}
		if c.Protocol == "h2c" && (c.VsBaseline == nil || c.VsBaseline.Pairs != 2) {
			t.Errorf("h2c's ratio to h1: %+v, want 2 pairs", c.VsBaseline)
		}
	}
}

// TestFetchedToolchain builds with a toolchain the go command fetches
// (in CI, from the module proxy; elsewhere only if it is in the module
// cache already) and compares it with the installed one.
func TestFetchedToolchain(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches a toolchain and builds with it: not under -short")
	}
	const version = "go1.27.4"
	installedVersion(t)
	if os.Getenv("CI") != "true" && !toolchainCached(version) {
		t.Skipf("%s is not in the module cache; CI=true fetches it", version)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	gv, err := Run(ctx, Options{
		Versions: []string{Installed, version}, Scenarios: []string{SmallSequential},
		Rounds: 2, MaxRounds: 2, Duration: 50 * time.Millisecond, CacheDir: cacheDir,
	})
	if err != nil {
		t.Fatal(err)
	}
	tc := gv.Toolchains[1]
	if tc.Error != "" || tc.Toolchain != version || tc.BinaryGo != version || !strings.Contains(tc.H2C, "net/http") {
		t.Fatalf("%s: %+v", version, tc)
	}
	var ratio *results.Interval
	for _, ch := range gv.Changes {
		if ch.Protocol == "h2c" && ch.To == version {
			ratio = ch.Ratio
		}
	}
	if len(gv.Cells) != 4 || ratio == nil || ratio.Pairs != 2 {
		t.Fatalf("%d cells, h2c's change of ratio %+v; want 4 cells and a change over 2 rounds", len(gv.Cells), ratio)
	}
}

// toolchainCached reports whether the go command has version in its
// module cache.
func toolchainCached(version string) bool {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return false
	}
	matches, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "golang.org", "toolchain@v0.0.1-"+version+".*"))
	return len(matches) > 0
}
