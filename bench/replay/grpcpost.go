package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/httpvs/httpvs/internal/bookstore"
	"github.com/httpvs/httpvs/internal/bookstore/bookstorepb"
	"github.com/httpvs/httpvs/internal/childserver"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// grpcAddrs are where the three bindings are served: the native gRPC
// listener and the cleartext HTTP port (ServeHTTP over h2c, JSON over h1).
type grpcAddrs struct{ native, plain string }

// grpcSetting is one way of running the post's benchmarks.
type grpcSetting struct {
	name       string
	procs      int  // GOMAXPROCS during the benchmark
	parallel   bool // b.RunParallel instead of a loop
	child      bool // the server in httpvs's child process, not this one
	postsShape bool // the post's own: one process, a loop, GOMAXPROCS 8
	gcOff      bool // allocation pressure removed: GOGC off under a 512 MiB memory limit
	stdJSON    bool // the JSON column decodes with encoding/json, not protojson
}

// grpcSettings go from httpvs's grpc-1 toward the post's shape, one
// setting changed a step.
var grpcSettings = []grpcSetting{
	{name: "testing.Benchmark loop against httpvs's child server (two processes, as grpc-1), GOMAXPROCS 2", procs: 2, child: true},
	{name: "the same loop, the server in this process (one process, as the post), GOMAXPROCS 2", procs: 2},
	{name: "the post's: one process, calls one at a time, GOMAXPROCS 8", procs: 8, postsShape: true},
	{name: "one process, b.RunParallel, GOMAXPROCS 8 (8 calls in flight)", procs: 8, parallel: true},
	{name: "the post's shape with the garbage collector off (GOGC off, 512 MiB memory limit): allocation pressure removed", procs: 8, gcOff: true},
	{name: "the post's shape with the JSON decoded by encoding/json into a map (not protojson)", procs: 8, stdJSON: true},
}

// grpcSection replays the gRPC post's three benchmarks (larking's
// benchmarks loop b.N calls one at a time; "-8" is GOMAXPROCS 8) with
// testing.Benchmark, then varies one setting at a time toward httpvs's
// grpc-1 to find which one turns the ordering.
func grpcSection(ctx context.Context, p sizes) ([]Row, string, error) {
	local, stop, err := startBookstore()
	if err != nil {
		return nil, "", err
	}
	defer stop()
	child, err := childserver.Start(ctx, p.exe, nil, childserver.Spec{})
	if err != nil {
		return nil, "", err
	}
	defer child.Stop()
	u, err := url.Parse(child.Ready.Plain)
	if err != nil {
		return nil, "", err
	}
	remote := grpcAddrs{native: child.Ready.GRPC, plain: u.Host}
	var rows []Row
	var lines []string
	steps := []ladderStep{}
	var natV, shV []variation
	if n := grpc1Native(); n != nil {
		steps = append(steps, ladderStep{"httpvs run's grpc-1", *n})
	}
	for _, s := range grpcSettings {
		addrs := local
		if s.child {
			addrs = remote
		}
		ns, by, al, err := grpcBench(p, addrs, s)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", s.name, err)
		}
		nat, sh := ns.ratio("native", "json", true), ns.ratio("servehttp", "json", true)
		lines = append(lines, fmt.Sprintf("| %s | %.0f / %.0f / %.0f | %s | %s | %.0f / %.0f / %.0f |", s.name,
			ns.median("native"), ns.median("servehttp"), ns.median("json"), ivText(nat), ivText(sh), al.median("native"), al.median("servehttp"), al.median("json")))
		if s.postsShape {
			rows = append(rows, grpcRows(ns, by, al, s.procs)...)
		} else {
			natV, shV = append(natV, variation{s.name, nat}), append(shV, variation{s.name, sh})
		}
		if !s.gcOff && !s.stdJSON {
			steps = append(steps, ladderStep{s.name, nat})
		}
	}
	if c := grpc1(); c != "" {
		lines = append(lines, c)
	}
	grpcApart(rows, natV, shV)
	beside := map[string]results.Interval{}
	shapeDisagrees := false
	for _, r := range rows {
		if r.Rule == "R1" {
			beside[r.col] = r.iv
			shapeDisagrees = shapeDisagrees || r.Verdict == disagrees
		}
	}
	prog, texts, pd, err := larkingProgramRows(ctx, p, beside, p.oldGRPC, shapeDisagrees)
	if err != nil {
		return nil, "", fmt.Errorf("the program itself: %w", err)
	}
	for i, r := range rows {
		if t := texts[r.col]; t != "" && r.Rule == "R1" && r.Verdict == disagrees {
			rows[i].Note += "; beside it, " + t
		}
	}
	rows = append(rows, prog...)
	head := "| setting | ns/op native / ServeHTTP / JSON | native over JSON (>1 faster) | ServeHTTP over JSON | allocs/op native / ServeHTTP / JSON |\n|---|---|---|---|---|\n"
	text := "The post's ordering (native 1.27x faster than HTTP/1 JSON, ServeHTTP 0.64x) under each setting, one changed at a time:\n\n" + head + strings.Join(lines, "\n") + "\n\n" + ladderText(steps, 47049.0/36980) + "\n\n" + pd
	return rows, text, nil
}

// grpc1Native is httpvs run's grpc-1 native/JSON interval, if measured.
func grpc1Native() *results.Interval {
	if loopback == nil {
		return nil
	}
	if n := loopback.Cell("grpc-1", nativeColumn); n != nil && n.VsBaseline != nil {
		return n.VsBaseline
	}
	return nil
}

// grpc1 is httpvs run's grpc-1 row in the same table.
func grpc1() string {
	if loopback == nil {
		return ""
	}
	n, h := loopback.Cell("grpc-1", nativeColumn), loopback.Cell("grpc-1", "h2c")
	if n == nil || h == nil || n.VsBaseline == nil || h.VsBaseline == nil {
		return ""
	}
	return fmt.Sprintf("| httpvs run's grpc-1 (load generator, child server, req/s) | - | %s | %s | - |", ivText(*n.VsBaseline), ivText(*h.VsBaseline))
}

// grpcApart ends the post's rows that disagree with the settings varied
// from its shape (the ladder's other rungs) and what was not varied.
func grpcApart(rows []Row, natV, shV []variation) {
	for i, r := range rows {
		if r.Verdict != disagrees || r.Rule != "R1" {
			continue
		}
		vs := pick2(r.col == "native", natV, shV)
		rows[i].Note = takeApart(r.published, r.iv, vs) + fmt.Sprintf("; not varied in this shape: grpc-go's version (built in: %s; the post's unstated), larking's mux (not built here)", or(facts.grpcGo))
	}
}

func pick2(c bool, a, b []variation) []variation {
	if c {
		return a
	}
	return b
}

func grpcRows(ns, by, al rounds, procs int) []Row {
	setup := fmt.Sprintf("testing.Benchmark in one process as larking's benchmarks, calls one at a time, GOMAXPROCS %d on %d cores; grpc-go %s's server on its own listener (the post: behind cmux), grpc.Server.ServeHTTP behind net/http h2c (the post: larking's mux), net/http JSON with http.DefaultTransport; %s", procs, facts.procCPUs, or(facts.grpcGo), facts.diff())
	nf := noiseOf(ns.ratio("json A/A", "json", true))
	iv1, iv2 := ns.ratio("native", "json", true), ns.ratio("servehttp", "json", true)
	v1, f1, n1 := ratioRule(47049.0/36980, iv1, nf)
	v2, f2, n2 := ratioRule(47049.0/73217, iv2, nf)
	pa := [3]float64{178, 234, 146}
	ga := [3]float64{al.median("native"), al.median("servehttp"), al.median("json")}
	v3 := countRule(pa[0]/pa[2], ga[0]/ga[2])
	if w := countRule(pa[1]/pa[2], ga[1]/ga[2]); w != agrees {
		v3 = w
	}
	return []Row{
		{Source: srcGRPC, Claim: "BenchmarkGRPC native 36,980 ns/op vs BenchmarkLarking HTTP_GetBook 47,049: native 1.27x faster", Setup: setup, Rule: "R1", Verdict: v1, Noise: n1, published: 47049.0 / 36980, col: "native", iv: iv1,
			Figure: fmt.Sprintf("native %.0f, JSON %.0f ns/op: native/JSON %s", ns.median("native"), ns.median("json"), f1)},
		{Source: srcGRPC, Claim: "GRPC_GetBook via ServeHTTP 73,217 ns/op vs HTTP JSON 47,049: 0.64x", Setup: setup, Rule: "R1", Verdict: v2, Noise: n2, published: 47049.0 / 73217, col: "servehttp", iv: iv2,
			Figure: fmt.Sprintf("ServeHTTP %.0f ns/op: ServeHTTP/JSON %s", ns.median("servehttp"), f2)},
		{Source: srcGRPC, Claim: "allocs/op native 178, ServeHTTP 234, JSON 146 (B/op 9,495, 25,753, 9,179): 1.22x and 1.60x JSON's", Setup: setup, Rule: "R3", Verdict: v3,
			Figure: fmt.Sprintf("allocs/op native %.0f, ServeHTTP %.0f, JSON %.0f (B/op %.0f, %.0f, %.0f): %.2fx and %.2fx JSON's", ga[0], ga[1], ga[2], by.median("native"), by.median("servehttp"), by.median("json"), ga[0]/ga[2], ga[1]/ga[2])},
	}
}

// grpcBench measures the three bindings (and JSON twice, A/A) under s.
func grpcBench(p sizes, a grpcAddrs, s grpcSetting) (ns, by, al rounds, err error) {
	native, err := bookstore.NewClient(bookstore.ClientOptions{Binding: bookstore.Native, Addr: a.native})
	if err != nil {
		return nil, nil, nil, err
	}
	defer native.Close()
	sh, err := bookstore.NewClient(bookstore.ClientOptions{Binding: bookstore.ServeHTTPH2C, Addr: a.plain})
	if err != nil {
		return nil, nil, nil, err
	}
	defer sh.Close()
	hc := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	defer hc.CloseIdleConnections()
	jsonURL := "http://" + a.plain + "/v1/" + bookstore.DefaultBookName
	call := map[string]func() error{
		"native":    func() error { _, _, err := native.Call(context.Background()); return err },
		"servehttp": func() error { _, _, err := sh.Call(context.Background()); return err },
		"json":      func() error { return getJSON(hc, jsonURL, s.stdJSON) },
	}
	old := runtime.GOMAXPROCS(s.procs)
	defer runtime.GOMAXPROCS(old)
	if s.gcOff {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(512 << 20))
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
	}
	return benchCols(p, []string{"native", "servehttp", "json", "json A/A"}, func(col string) func(*testing.B) {
		return loopBench(call[col], s.parallel)
	})
}

// getJSON is larking's doRequest: GET, read all, decode the book.
// With std, encoding/json decodes the body into a map instead.
func getJSON(hc *http.Client, u string, std bool) error {
	resp, err := hc.Get(u)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	if std {
		var m map[string]any
		return json.Unmarshal(body, &m)
	}
	var book bookstorepb.Book
	return protojson.Unmarshal(body, &book)
}

// loopBench calls fn b.N times, or in b.RunParallel.
func loopBench(fn func() error, parallel bool) func(*testing.B) {
	if parallel {
		return func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := fn(); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
	}
	return func(b *testing.B) {
		for range b.N {
			if err := fn(); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// startBookstore serves GetBook in this process: grpc-go's own server on
// a listener, and its ServeHTTP plus the JSON route behind net/http (h1
// and h2c on one port).
func startBookstore() (grpcAddrs, func(), error) {
	g := bookstore.NewGRPCServer()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return grpcAddrs{}, nil, err
	}
	go g.Serve(ln)
	mux := http.NewServeMux()
	mux.HandleFunc(bookstore.JSONPattern, bookstore.ServeJSON)
	g2 := bookstore.NewGRPCServer()
	ts, err := transport.NewServer(transport.ServerOptions{Handler: bookstore.Mount(g2, mux), Listen: "127.0.0.1:0"})
	if err != nil {
		g.Stop()
		return grpcAddrs{}, nil, err
	}
	stop := func() { ts.Close(); g.Stop(); g2.Stop() }
	return grpcAddrs{native: ln.Addr().String(), plain: ts.Addr(transport.H1)}, stop, nil
}

// ladderStep is one setting's native/JSON interval.
type ladderStep struct {
	name string
	iv   results.Interval
}

// ladderText says, step by step, how each one-setting change moved
// native/JSON (its order, by R2, and its distance to the published
// ratio), and which step first turned the order to the post's (native
// faster), if any.
func ladderText(steps []ladderStep, pub float64) string {
	if len(steps) < 2 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Native over JSON, step by step toward the post's shape (published %.2fx, native faster):", pub)
	turned := -1
	for i := 1; i < len(steps); i++ {
		a, c := steps[i-1].iv, steps[i].iv
		move := math.Abs(math.Log(a.Ratio/pub)) - math.Abs(math.Log(c.Ratio/pub))
		fmt.Fprintf(&b, "\n- %s -> %s: %.2fx (%s) -> %.2fx (%s); %s the published ratio by %.0f%%", steps[i-1].name, steps[i].name, a.Ratio, orderText(a), c.Ratio, orderText(c),
			pick(move >= 0, "toward", "away from"), math.Abs(math.Expm1(move))*100)
		if turned < 0 && orderText(c) == "native faster" && orderText(a) != "native faster" {
			turned = i
		}
	}
	if orderText(steps[0].iv) == "native faster" {
		b.WriteString("\n\nhttpvs's own figure already has native faster in this run: nothing to explain here.")
		return b.String()
	}
	if turned < 0 {
		b.WriteString("\n\nNo step turned the order to the post's (native faster, by R2): open among these settings.")
		return b.String()
	}
	fmt.Fprintf(&b, "\n\nThe step that turned the order to the post's (native faster, by R2): %s -> %s.", steps[turned-1].name, steps[turned].name)
	if strings.Contains(steps[turned].name, "GOMAXPROCS 8") && !strings.Contains(steps[turned-1].name, "GOMAXPROCS 8") {
		fmt.Fprintf(&b, " On %d cores GOMAXPROCS 8 oversubscribes them; the post's machine had at least 8 (its -8 suffix is GOMAXPROCS).", facts.procCPUs)
	}
	return b.String()
}

func orderText(iv results.Interval) string {
	switch {
	case iv.Pairs >= 2 && iv.Low > 1:
		return "native faster"
	case iv.Pairs >= 2 && iv.High < 1:
		return "native slower"
	}
	return "undecided"
}
