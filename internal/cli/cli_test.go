package cli

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/bookstore"
	"github.com/httpvs/httpvs/internal/testenv"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
)

// What the tests of whole runs share (internal/testenv), by the names
// these tests use.
type syncBuffer = testenv.SyncBuffer

var (
	readResults  = testenv.ReadResults
	netLeftovers = testenv.NetLeftovers
)

// needLink skips the test where no emulated link can be made (testenv.NeedLink).
func needLink(t *testing.T) {
	t.Helper()
	testenv.NeedLink[*netem.SetupError](t, func() (*netem.Link, error) { return netem.NewLink(netem.Spec{}) })
}

func runMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut syncBuffer
	code = Main(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// testServer starts a payload server on loopback and writes its
// certificate to a file for --cacert.
func testServer(t *testing.T) (*transport.Server, string) {
	t.Helper()
	srv, err := server.Start(server.Config{Transport: server.Loopback()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ts := srv.Transport
	certFile := filepath.Join(t.TempDir(), "cert.pem")
	if err := os.WriteFile(certFile, transport.CertPEM(ts.Cert()), 0o600); err != nil {
		t.Fatal(err)
	}
	return ts, certFile
}

func TestGetAndPutJSONEveryTransport(t *testing.T) {
	t.Parallel() // see TestMain
	ts, certFile := testServer(t)
	for _, p := range transport.All {
		for _, cmd := range []string{"get", "put"} {
			t.Run(p.String()+"/"+cmd, func(t *testing.T) {
				args := []string{cmd, ts.URL(p) + "/bytes/3M", "-p", p.String(), "-n", "3", "--json", "--cacert", certFile}
				if cmd == "put" {
					args = []string{cmd, ts.URL(p) + "/sink", "3M", "-p", p.String(), "-n", "3", "--json", "--cacert", certFile}
				}
				code, stdout, stderr := runMain(t, args...)
				if code != 0 {
					t.Fatalf("exit %d, stderr %q", code, stderr)
				}
				var got map[string]any
				dec := json.NewDecoder(strings.NewReader(stdout))
				if err := dec.Decode(&got); err != nil {
					t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
				}
				if dec.More() {
					t.Fatalf("stdout holds more than one JSON value:\n%s", stdout)
				}
				for _, key := range []string{"protocol", "bytes", "seconds", "bits_per_second", "streams", "connections", "errors", "server"} {
					if _, ok := got[key]; !ok {
						t.Errorf("JSON lacks %q", key)
					}
				}
				if got["protocol"] != p.String() || got["bytes"] != float64(9_000_000) || got["streams"] != float64(3) {
					t.Fatalf("protocol %v bytes %v streams %v", got["protocol"], got["bytes"], got["streams"])
				}
				wantConns := 1.0
				if p.Version() == 1 {
					wantConns = 3
				}
				if got["connections"] != wantConns {
					t.Fatalf("connections %v, want %v", got["connections"], wantConns)
				}
				if errs := got["errors"].(map[string]any); errs["total"] != float64(0) {
					t.Fatalf("errors %v", errs)
				}
				srv, ok := got["server"].(map[string]any)
				if !ok {
					t.Fatalf("server stats missing: %v", got["server_note"])
				}
				pc := srv["protocols"].(map[string]any)[p.String()].(map[string]any)
				key := "body_bytes_sent"
				if cmd == "put" {
					key = "body_bytes_received"
				}
				if pc[key] != float64(9_000_000) || pc["requests"] != float64(3) || pc["connections"] != wantConns {
					t.Fatalf("server counters %v", pc)
				}
			})
		}
	}
}

func TestGetText(t *testing.T) {
	ts, _ := testServer(t)
	code, stdout, stderr := runMain(t, "get", ts.URL(transport.H2C)+"/1M", "-p", "h2c")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"over h2c (negotiated h2c): 1 stream on 1 connection",
		"client received 1000000 bytes in",
		"server  sent 1000000 bytes",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown-command", []string{"frob"}, `unknown command "frob"`},
		{"unknown-transport", []string{"get", "http://127.0.0.1:1/1", "-p", "h4"}, "want one of h1, h2c, h1-tls, h2, h3"},
		{"h2c-https", []string{"get", "https://127.0.0.1:1/1", "-p", "h2c"}, "use -p h1-tls, h2 or h3"},
		{"h1-https", []string{"get", "https://127.0.0.1:1/1", "-p", "h1"}, "use -p h1-tls, h2 or h3"},
		{"h2-http", []string{"get", "http://127.0.0.1:1/1", "-p", "h2"}, "use -p h1 or h2c"},
		{"h3-http", []string{"get", "http://127.0.0.1:1/1", "-p", "h3"}, "use -p h1 or h2c"},
		{"bad-url", []string{"get", "ftp://x/1"}, "want http://host:port/path"},
		{"no-url", []string{"get"}, "get takes one URL"},
		{"bad-flag", []string{"get", "http://127.0.0.1:1/1", "--bogus"}, "unknown flag --bogus"},
		{"bad-n", []string{"get", "http://127.0.0.1:1/1", "-n", "0"}, "-n 0: want at least 1"},
		{"bad-conns", []string{"get", "http://127.0.0.1:1/1", "-n", "2", "--conns", "3"}, "--conns 3: want 1 to 2, the transfers at once"},
		{"bad-size", []string{"put", "http://127.0.0.1:1/sink", "1.5g"}, "want an integer with an optional suffix"},
		{"bad-read-size", []string{"get", "http://127.0.0.1:1/1", "--read-size", "lots"}, "want an integer"},
		{"bad-frame", []string{"get", "http://127.0.0.1:1/1", "--h2-max-frame", "1k"}, "want 16Ki to 16777215"},
		{"fd-limit", []string{"get", "http://127.0.0.1:1/1", "-n", "2000000000"}, "file descriptors"},
		{"serve-cert-alone", []string{"serve", "--cert", "x.pem"}, "--cert and --key go together"},
		{"tune-budget-0", []string{"tune", "--budget", "0"}, "--budget 0s: want a positive duration"},
		{"tune-trial-0", []string{"tune", "--trial", "0"}, "--trial 0s: want a positive duration"},
		{"serve-bad-listen", []string{"serve", "--listen", "8080"}, "want host:port"},
		{"serve-bad-max-conns", []string{"serve", "--max-conns", "-1"}, "--max-conns -1: want 0 (no bound) or more"},
		{"serve-bad-header-timeout", []string{"serve", "--read-header-timeout", "0s"}, "want a positive duration"},
		{"serve-bad-header-bytes", []string{"serve", "--max-header-bytes", "10"}, "want at least 4096"},
		{"run-bad-protocols", []string{"run", "--protocols", "h1,h9"}, "want one of"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, tt.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr %q", code, exitUsage, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout not empty: %q", stdout)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Fatalf("stderr %q, want one line containing %q", stderr, tt.want)
			}
		})
	}
}

func TestRuntimeFailures(t *testing.T) {
	ts, _ := testServer(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"refused", []string{"get", "http://" + closed + "/1M"}, "is a server listening there?"},
		{"untrusted", []string{"get", ts.URL(transport.H2) + "/1M"}, "pass -k"},
		{"over-cap", []string{"get", ts.URL(transport.H1) + "/2T"}, "above this server's size limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runMain(t, tt.args...)
			if code != exitFailure {
				t.Fatalf("exit %d, want %d; stderr %q", code, exitFailure, stderr)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) {
				t.Fatalf("stderr %q, want one line containing %q", stderr, tt.want)
			}
		})
	}
	// -k makes the untrusted certificate acceptable.
	if code, _, stderr := runMain(t, "get", ts.URL(transport.H2)+"/1M", "-k"); code != 0 {
		t.Fatalf("-k: exit %d: %s", code, stderr)
	}
}

func TestServeStartsAndStops(t *testing.T) {
	t.Parallel() // see TestMain: a server of its own on ports of its own
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"serve", "--listen", "127.0.0.1:0", "--tls-listen", "127.0.0.1:0", "--grpc-listen", "127.0.0.1:0"}, &out, &errOut)
	}()
	urlRE := regexp.MustCompile(`h1, h2c\s+(http://\S+)`)
	deadline := time.Now().Add(10 * time.Second)
	var base string
	for time.Now().Before(deadline) {
		if m := urlRE.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if base == "" {
		t.Fatalf("no URL in banner: %q %q", out.String(), errOut.String())
	}
	if !regexp.MustCompile(`SHA-256 ([0-9A-F]{2}:){31}[0-9A-F]{2}`).MatchString(out.String()) {
		t.Errorf("banner lacks the certificate fingerprint:\n%s", out.String())
	}
	if code, _, stderr := runMain(t, "get", base+"/10000000", "-p", "h2c", "--timeout", "1m"); code != 0 {
		t.Fatalf("get from serve: exit %d: %s", code, stderr)
	}
	// The banner says where native gRPC is, and it answers there.
	m := regexp.MustCompile(`gRPC\s+(127\.0\.0\.1:\d+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("banner lacks the gRPC address:\n%s", out.String())
	}
	gc, err := bookstore.NewClient(bookstore.ClientOptions{Binding: bookstore.Native, Addr: m[1]})
	if err != nil {
		t.Fatal(err)
	}
	book, err := gc.GetBook(ctx)
	gc.Close()
	if err != nil || book.GetName() != bookstore.DefaultBookName {
		t.Fatalf("native GetBook: %v, %v", book, err)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve exit %d: %s", code, errOut.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop on cancel")
	}
	if !strings.Contains(out.String(), "stopped after") || !strings.Contains(out.String(), "2 requests, 9.5 MiB sent") {
		t.Errorf("no closing line with the counts:\n%s", out.String())
	}
}

func TestHelpAndVersion(t *testing.T) {
	if code, stdout, _ := runMain(t, "help"); code != 0 || !strings.Contains(stdout, "usage: httpvs <command>") {
		t.Fatalf("help: exit %d, %q", code, stdout)
	}
	if code, _, _ := runMain(t); code != exitUsage {
		t.Fatalf("no arguments: exit %d, want %d", code, exitUsage)
	}
	if code, stdout, _ := runMain(t, "get", "-h"); code != 0 || !strings.Contains(stdout, "-read-size") {
		t.Fatalf("get -h: exit %d, %q", code, stdout)
	}
	for _, arg := range []string{"version", "--version", "-V"} {
		if code, stdout, _ := runMain(t, arg); code != 0 || !strings.HasPrefix(stdout, "httpvs ") {
			t.Errorf("%s: exit %d, %q", arg, code, stdout)
		}
	}
}

// TestServeSideBySide: with the default native gRPC address taken (by
// another httpvs serve, say), a second serve with its own --listen starts
// all the same, says so, and prints where its gRPC listens.
func TestServeSideBySide(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:9090")
	if err != nil {
		// Someone else holds it, and may let go of it at any moment.
		t.Skipf("cannot hold 127.0.0.1:9090 for the test: %v", err)
	}
	defer ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"serve", "--listen", "127.0.0.1:0", "--tls-listen", "127.0.0.1:0", "--no-h3"}, &out, &errOut)
	}()
	grpcRE := regexp.MustCompile(`gRPC\s+127\.0\.0\.1:(\d+)`)
	deadline := time.Now().Add(10 * time.Second)
	var m []string
	for m == nil && time.Now().Before(deadline) {
		select {
		case code := <-done:
			t.Fatalf("serve exited %d: %s", code, errOut.String())
		case <-time.After(20 * time.Millisecond):
		}
		m = grpcRE.FindStringSubmatch(out.String())
	}
	if m == nil || m[1] == "9090" || !strings.Contains(errOut.String(), "127.0.0.1:9090 is taken") {
		t.Fatalf("gRPC address %v; stderr %q", m, errOut.String())
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
}
