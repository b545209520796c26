package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
)

// gonugetBenchmarks are gonuget's six benchmarks (its
// http/BENCHMARKS.md), rebuilt here from the report's "Benchmark
// Methodology": the handler answers 200 with no body, the client closes
// the body; HTTP/1.1 on httptest.NewServer with a zero-configured
// transport, HTTP/2 on httptest.NewUnstartedServer with EnableHTTP2 and
// StartTLS through the server's own client, HTTP/3 on an http3.Server
// over a UDP socket with an ed25519 certificate and 0-RTT allowed; the
// concurrent ones in b.RunParallel after ten warm-up requests (HTTP/1.1
// and HTTP/2), MaxIdleConnsPerHost 100.
var gonugetBenchmarks = map[string]func(*testing.B){
	"HTTP1_Request":            func(b *testing.B) { gonugetBench(b, "h1", false) },
	"HTTP2_Request":            func(b *testing.B) { gonugetBench(b, "h2", false) },
	"HTTP3_Request":            func(b *testing.B) { gonugetBench(b, "h3", false) },
	"HTTP1_ConcurrentRequests": func(b *testing.B) { gonugetBench(b, "h1", true) },
	"HTTP2_ConcurrentRequests": func(b *testing.B) { gonugetBench(b, "h2", true) },
	"HTTP3_ConcurrentRequests": func(b *testing.B) { gonugetBench(b, "h3", true) },
}

// gonugetMain runs the named benchmarks in the order given, each with
// testing.Benchmark in this process, and prints go test's line for each:
// "BenchmarkNAME-P  N  X ns/op  B B/op  A allocs/op".
// It is started by replay as `replay --program gonuget -benchtime D NAME...`.
func gonugetMain(args []string, stdout io.Writer) int {
	fs := flag.NewFlagSet("gonuget", flag.ContinueOnError)
	benchtime := fs.Duration("benchtime", time.Second, "each benchmark's time (go test's -benchtime)")
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 || *benchtime <= 0 {
		fmt.Fprintln(os.Stderr, "gonuget: -benchtime D (>0) NAME... (HTTP1_Request, HTTP2_ConcurrentRequests, ...)")
		return 2
	}
	for _, name := range fs.Args() {
		if gonugetBenchmarks[name] == nil {
			fmt.Fprintf(os.Stderr, "gonuget: no benchmark %q\n", name)
			return 2
		}
	}
	testing.Init()
	if err := flag.Set("test.benchtime", benchtime.String()); err != nil {
		fmt.Fprintln(os.Stderr, "gonuget:", err)
		return 1
	}
	for _, name := range fs.Args() {
		r := testing.Benchmark(gonugetBenchmarks[name])
		if r.N == 0 {
			fmt.Fprintf(os.Stderr, "gonuget: Benchmark%s failed\n", name)
			return 1
		}
		fmt.Fprintf(stdout, "Benchmark%s-%d\t%d\t%d ns/op\t%d B/op\t%d allocs/op\n", name, runtime.GOMAXPROCS(0), r.N, r.NsPerOp(), r.AllocedBytesPerOp(), r.AllocsPerOp())
	}
	return 0
}

// gonugetBench is one of the six: a server of proto's kind, its client,
// and GETs one at a time or in b.RunParallel.
func gonugetBench(b *testing.B, proto string, parallel bool) {
	url, c, stop, err := gonugetServer(proto, parallel)
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	if parallel && proto != "h3" {
		for range 10 {
			if resp, err := c.Get(url); err == nil {
				resp.Body.Close()
			}
		}
	}
	get := func() error {
		resp, err := c.Get(url)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	if !parallel {
		for b.Loop() {
			if err := get(); err != nil {
				b.Fatal(err)
			}
		}
		return
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := get(); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// gonugetServer starts proto's server, answering 200 with no body, and
// the client gonuget's benchmark uses for it.
func gonugetServer(proto string, parallel bool) (string, *http.Client, func(), error) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	switch proto {
	case "h1":
		s := httptest.NewServer(ok)
		tr := &http.Transport{Proxy: http.ProxyFromEnvironment}
		if parallel {
			tr.MaxIdleConnsPerHost, tr.MaxIdleConns = 100, 1000
		}
		return s.URL, &http.Client{Transport: tr}, func() { tr.CloseIdleConnections(); s.Close() }, nil
	case "h2":
		s := httptest.NewUnstartedServer(ok)
		s.EnableHTTP2 = true
		s.StartTLS()
		return s.URL, s.Client(), s.Close, nil
	}
	srvTLS, cliTLS, err := gonugetCerts()
	if err != nil {
		return "", nil, nil, err
	}
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return "", nil, nil, err
	}
	s := &http3.Server{Handler: ok, TLSConfig: srvTLS}
	go s.Serve(udp)
	tr := &http3.Transport{TLSClientConfig: cliTLS, QUICConfig: &quic.Config{Allow0RTT: true}}
	stop := func() {
		tr.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		s.Shutdown(ctx)
		udp.Close()
	}
	return "https://" + udp.LocalAddr().String() + "/", &http.Client{Transport: tr}, stop, nil
}

// gonugetCerts makes a self-signed ed25519 certificate for 127.0.0.1 and
// localhost, with the server's and the client's TLS configurations.
func gonugetCerts() (*tls.Config, *tls.Config, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{Organization: []string{"replay"}},
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		NotBefore: time.Now().Add(-time.Minute), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true,
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, pub, priv)
	if err != nil {
		return nil, nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	srv := &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: priv}}, NextProtos: []string{http3.NextProtoH3}}
	cli := &tls.Config{RootCAs: pool, ServerName: "localhost", MinVersion: tls.VersionTLS12, NextProtos: []string{http3.NextProtoH3}}
	return srv, cli, nil
}

// parseBenchLines reads go test's benchmark lines: ns/op, B/op and
// allocs/op by the benchmark's name without "Benchmark" and "-P".
func parseBenchLines(out string) (map[string]benchResult, error) {
	res := map[string]benchResult{}
	for _, line := range strings.Split(out, "\n") {
		var name string
		var n int
		var r benchResult
		if _, err := fmt.Sscanf(line, "%s %d %g ns/op %g B/op %g allocs/op", &name, &n, &r.ns, &r.bytes, &r.allocs); err != nil {
			continue
		}
		name = strings.TrimPrefix(name, "Benchmark")
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			name = name[:i]
		}
		res[name] = r
	}
	if len(res) == 0 {
		return nil, fmt.Errorf("no benchmark line in %q", out)
	}
	return res, nil
}
