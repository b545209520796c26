package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/httpvstest"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/transport"
)

// benchResult is one testing.Benchmark run's figures.
type benchResult struct{ ns, bytes, allocs float64 }

// benchCols measures each column's benchmark in paired rounds, keeping
// ns/op, B/op and allocs/op per round.
func benchCols(p sizes, cols []string, bench func(col string) func(*testing.B)) (ns, bytes, allocs rounds, err error) {
	if err := flag.Set("test.benchtime", p.benchTime.String()); err != nil {
		return nil, nil, nil, err
	}
	bytes, allocs = rounds{}, rounds{}
	ns, err = measureRounds(p.benchRounds, cols, true, func(col string) (float64, error) {
		r := testing.Benchmark(bench(strings.TrimSuffix(col, " A/A")))
		if r.N == 0 {
			return 0, fmt.Errorf("benchmark failed")
		}
		bytes[col] = append(bytes[col], float64(r.AllocedBytesPerOp()))
		allocs[col] = append(allocs[col], float64(r.AllocsPerOp()))
		return float64(r.NsPerOp()), nil
	})
	return ns, bytes, allocs, err
}

// gonugetSection replays gonuget's benchmarks in their own shape:
// testing.Benchmark in this one process, client and server together,
// sequential and b.RunParallel, HTTP/1.1 cleartext, HTTP/2 over TLS and
// HTTP/3, with B/op and allocs/op.
func gonugetSection(ctx context.Context, p sizes) ([]Row, string, error) {
	small := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, `{"status":"ok"}`) })
	servers := map[string]*httpvstest.Server{}
	for _, pr := range []transport.Protocol{transport.H1, transport.H2, transport.H3} {
		s, err := httpvstest.Start(httpvstest.Options{Handler: small, Protocol: pr})
		if err != nil {
			return nil, "", err
		}
		defer s.Close()
		servers[pr.String()] = s
	}
	cols := []string{"h1", "h2", "h3", "h1 A/A"}
	var rows []Row
	var detail []string
	for _, parallel := range []bool{false, true} {
		ns, by, al, err := benchCols(p, cols, func(col string) func(*testing.B) { return getBench(servers[col], parallel) })
		if err != nil {
			return nil, "", err
		}
		got := gonugetRows(ns, by, al, parallel)
		if err := gonugetApart(p, servers, parallel, got); err != nil {
			return nil, "", err
		}
		rows = append(rows, got...)
		detail = append(detail, fmt.Sprintf("%s (median ns/op, B/op, allocs/op): h1 %.0f, %.0f, %.0f; h2 %.0f, %.0f, %.0f; h3 %.0f, %.0f, %.0f",
			pick(parallel, "RunParallel", "sequential"), ns.median("h1"), by.median("h1"), al.median("h1"), ns.median("h2"), by.median("h2"), al.median("h2"), ns.median("h3"), by.median("h3"), al.median("h3")))
	}
	beside := map[string]results.Interval{}
	for _, r := range rows {
		if r.Rule == "R1" {
			beside[pick(strings.Contains(r.Claim, "RunParallel"), "concurrent (RunParallel)", "sequential")+" "+r.col] = r.iv
		}
	}
	prog, pd, err := gonugetProgramRows(ctx, p, beside)
	if err != nil {
		return nil, "", fmt.Errorf("the program itself: %w", err)
	}
	return append(rows, prog...), "gonuget's shape, testing.Benchmark at -benchtime " + p.benchTime.String() + ": " + strings.Join(detail, "; ") + ". " + pd, nil
}

// gonugetPub is the report's tables: ns/op, B/op, allocs/op.
var gonugetPub = map[bool]map[string]benchResult{
	false: {"h1": {29839, 4528, 53}, "h2": {40210, 5087, 58}, "h3": {59746, 13078, 205}},
	true:  {"h1": {9967, 4530, 52}, "h2": {10710, 5105, 56}, "h3": {16791, 12667, 185}},
}

func gonugetRows(ns, by, al rounds, parallel bool) []Row {
	pub := gonugetPub[parallel]
	shape := pick(parallel, "concurrent (RunParallel)", "sequential")
	setup := fmt.Sprintf("testing.Benchmark in this process, %s, GOMAXPROCS %d, httpvstest servers (h1 cleartext, h2 TLS, h3 quic-go), Go as shipped clients; gonuget: Apple M4 Pro, Go 1.21, -benchtime 3s; %s", shape, runtime.GOMAXPROCS(0), facts.diff())
	nf := noiseOf(ns.ratio("h1 A/A", "h1", true))
	var rows []Row
	for _, col := range []string{"h2", "h3"} {
		pr := pub["h1"].ns / pub[col].ns
		iv := ns.ratio(col, "h1", true)
		v, fig, noise := ratioRule(pr, iv, nf)
		rows = append(rows, Row{Source: srcGonuget, Claim: fmt.Sprintf("go test -bench %s %s: %.0f ns/op vs h1 %.0f: %.2fx", shape, col, pub[col].ns, pub["h1"].ns, pr),
			Setup: setup, Figure: fmt.Sprintf("h1 %.0f, %s %.0f ns/op: %s", ns.median("h1"), col, ns.median(col), fig), Rule: "R1", Verdict: v, Noise: noise, published: pr, col: col, iv: iv})
	}
	if parallel {
		return rows
	}
	for _, col := range []string{"h2", "h3"} {
		pb, pa := pub[col].bytes/pub["h1"].bytes, pub[col].allocs/pub["h1"].allocs
		gb, ga := by.median(col)/by.median("h1"), al.median(col)/al.median("h1")
		v := countRule(pb, gb)
		if countRule(pa, ga) != agrees {
			v = countRule(pa, ga)
		}
		rows = append(rows, Row{Source: srcGonuget, Claim: fmt.Sprintf("sequential %s: %.0f B/op, %.0f allocs/op vs h1 %.0f, %.0f: %.2fx bytes, %.2fx allocs", col, pub[col].bytes, pub[col].allocs, pub["h1"].bytes, pub["h1"].allocs, pb, pa),
			Setup: setup, Figure: fmt.Sprintf("%s %.0f B/op, %.0f allocs/op vs h1 %.0f, %.0f: %.2fx bytes, %.2fx allocs", col, by.median(col), al.median(col), by.median("h1"), al.median("h1"), gb, ga),
			Rule: "R3", Verdict: v})
	}
	return rows
}

// gonugetProcs are the GOMAXPROCS values a disagreeing gonuget row is
// varied over: one, and 12 (an M4 Pro's smaller core count: RunParallel
// starts GOMAXPROCS goroutines, go test sets GOMAXPROCS to the cores).
var gonugetProcs = []int{1, 12}

// gonugetApart takes apart the ns/op rows of one shape that disagree:
// the same benchmark under each of gonugetProcs, in rounds of their own.
func gonugetApart(p sizes, servers map[string]*httpvstest.Server, parallel bool, rows []Row) error {
	var cols []string
	for _, r := range rows {
		if r.Verdict == disagrees && r.Rule == "R1" {
			cols = append(cols, r.col)
		}
	}
	if len(cols) == 0 {
		return nil
	}
	vary := map[string][]variation{}
	q := p
	q.benchRounds = max(3, p.benchRounds/2)
	for _, procs := range gonugetProcs {
		old := runtime.GOMAXPROCS(procs)
		ns, _, _, err := benchCols(q, append([]string{"h1"}, cols...), func(col string) func(*testing.B) { return getBench(servers[col], parallel) })
		runtime.GOMAXPROCS(old)
		if err != nil {
			return fmt.Errorf("GOMAXPROCS %d: %w", procs, err)
		}
		for _, c := range cols {
			vary[c] = append(vary[c], variation{fmt.Sprintf("GOMAXPROCS %d", procs), ns.ratio(c, "h1", true)})
		}
	}
	for i, r := range rows {
		if v, ok := vary[r.col]; ok && r.Verdict == disagrees && r.Rule == "R1" {
			rows[i].Note = takeApart(r.published, r.iv, v) + "; not varied: Go's version (gonuget's 1.21) and the machine (an M4 Pro)"
		}
	}
	return nil
}

// getBench is gonuget's benchmark: GET, read the body, close it; with
// parallel, in b.RunParallel.
func getBench(s *httpvstest.Server, parallel bool) func(*testing.B) {
	c, url := s.Client(), s.URL+"/"
	return loopBench(func() error {
		resp, err := c.Get(url)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		return resp.Body.Close()
	}, parallel)
}
