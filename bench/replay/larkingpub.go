package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/httpvs/httpvs/results"
)

// The rebuilt gRPC post's benchmark names, as its output names them.
const (
	lkServeHTTP = "Larking/GRPC_GetBook"
	lkJSON      = "Larking/HTTP_GetBook"
	lkNative    = "GRPC/GRPC_GetBook"
)

// larkingRun is one way of running the rebuilt program: which binary
// (this one, or one built against another grpc-go), its flags and its
// environment.
type larkingRun struct {
	name string
	exe  string
	args []string
	env  []string
	only string // the one column the setting can move, or "" for both
}

// larkingProgramRows runs the gRPC post's benchmarks themselves, rebuilt
// here (`replay --program larking`), each round one process running the
// three in a fresh random order under GOMAXPROCS 8 (the post's -8), and
// holds native/JSON and ServeHTTP/JSON to the post's beside httpvs's own
// shape of the same benchmarks (beside: "native", "servehttp"). A
// disagreement is taken apart by GOMAXPROCS, the split listener and,
// when oldGRPC names a binary built against an older grpc-go, grpc-go's
// version.
//
// The settings are also measured when only the post's shape in this
// process (shapeDisagrees) disagrees, and each is returned as text by
// column ("native", "servehttp"), for those rows' notes.
func larkingProgramRows(ctx context.Context, p sizes, beside map[string]results.Interval, oldGRPC string, shapeDisagrees bool) ([]Row, map[string]string, string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, nil, "", err
	}
	post := larkingRun{exe: self, env: []string{"GOMAXPROCS=8"}}
	base, err := larkingRounds(ctx, p, p.benchRounds, post)
	if err != nil {
		return nil, nil, "", err
	}
	claims := []struct {
		key, col, text string
		pub            float64
	}{
		{"native", lkNative, "its benchmarks themselves: BenchmarkGRPC 36,980 ns/op vs BenchmarkLarking HTTP_GetBook 47,049: native 1.27x faster", 47049.0 / 36980},
		{"servehttp", lkServeHTTP, "its benchmarks themselves: Larking GRPC_GetBook (ServeHTTP) 73,217 ns/op vs HTTP_GetBook 47,049: 0.64x", 47049.0 / 73217},
	}
	var rows []Row
	for _, c := range claims {
		iv := base.ratio(c.col, lkJSON, true)
		v, fig, _ := ratioRule(c.pub, iv, 0)
		near := "not measured"
		if b, ok := beside[c.key]; ok {
			near = ivText(b)
		}
		rows = append(rows, Row{Source: srcGRPC, Claim: c.text, published: c.pub, iv: iv, col: c.col, Rule: "R1", Verdict: v,
			Setup: fmt.Sprintf("the post's three benchmarks rebuilt here from its text (`replay --program larking`; larking's mux and its Library service not built: the Bookstore's GetBook instead): one process, GOMAXPROCS 8; ServeHTTP and JSON on one net/http listener (h1 and h2c), JSON through http.DefaultClient; grpc-go's own server behind a listener split by the first bytes (the post's cmux); each round one process running the three in random order at -benchtime %s, %d rounds; grpc-go %s; %s",
				p.benchTime, p.benchRounds, or(facts.grpcGo), facts.diff()),
			Figure: fmt.Sprintf("%s %.0f, JSON %.0f ns/op (allocs/op %.0f, %.0f): %s; beside it, httpvs's shape of the post (above): %s", c.key, base.median(c.col), base.median(lkJSON), base.median(c.col+" allocs/op"), base.median(lkJSON+" allocs/op"), fig, near)})
	}
	var detail []string
	texts := map[string]string{}
	if rows[0].Verdict == disagrees || rows[1].Verdict == disagrees || shapeDisagrees {
		vs, d, err := larkingApart(ctx, p, self, oldGRPC)
		if err != nil {
			return nil, nil, "", err
		}
		detail = d
		for i, c := range claims {
			if rows[i].Verdict == disagrees {
				rows[i].Note = takeApart(c.pub, rows[i].iv, vs[c.col]) + "; not varied: larking's own mux and generated service (not built here)"
			}
			var s []string
			for _, v := range vs[c.col] {
				s = append(s, v.setting+": "+ivText(v.iv))
			}
			texts[c.key] = fmt.Sprintf("the post's program itself, rebuilt (%s as run: %s), under each setting: %s", c.key, ivText(rows[i].iv), strings.Join(s, "; "))
		}
	}
	return rows, texts, "The post's benchmarks themselves, rebuilt here (median ns/op, B/op, allocs/op): " + larkingMedians(base) + ". " + strings.Join(detail, " "), nil
}

// larkingApart measures the program under each setting varied one at
// a time, and returns each column's variations (over JSON) and a line
// of medians a setting.
func larkingApart(ctx context.Context, p sizes, self, oldGRPC string) (map[string][]variation, []string, error) {
	runs := []larkingRun{
		{name: fmt.Sprintf("GOMAXPROCS %d (this machine's cores) instead of 8", facts.numCPU), exe: self, env: []string{fmt.Sprintf("GOMAXPROCS=%d", facts.numCPU)}},
		{name: "grpc-go's server on a listener of its own (no split listener)", exe: self, args: []string{"-cmux=false"}, env: []string{"GOMAXPROCS=8"}, only: lkNative},
	}
	if oldGRPC != "" {
		runs = append(runs, larkingRun{name: "built against grpc-go " + grpcVersionOf(oldGRPC) + " instead of " + or(facts.grpcGo), exe: oldGRPC, env: []string{"GOMAXPROCS=8"}})
	}
	vs := map[string][]variation{}
	var detail []string
	n := max(3, p.benchRounds/2)
	for _, r := range runs {
		rs, err := larkingRounds(ctx, p, n, r)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", r.name, err)
		}
		for _, col := range []string{lkNative, lkServeHTTP} {
			if r.only == "" || r.only == col {
				vs[col] = append(vs[col], variation{r.name, rs.ratio(col, lkJSON, true)})
			}
		}
		detail = append(detail, fmt.Sprintf("Under %s: %s.", r.name, larkingMedians(rs)))
	}
	return vs, detail, nil
}

// larkingRounds runs the program n rounds after a warm-up one, the
// three benchmarks a round in a fresh random order, and keeps ns/op,
// B/op and allocs/op by benchmark name.
func larkingRounds(ctx context.Context, p sizes, n int, r larkingRun) (rounds, error) {
	return benchProgramRounds(ctx, "larking", r.exe, r.args, r.env, []string{lkServeHTTP, lkJSON, lkNative}, p, n)
}

func larkingMedians(rs rounds) string {
	var s []string
	for _, n := range []string{lkServeHTTP, lkJSON, lkNative} {
		s = append(s, fmt.Sprintf("%s %.0f, %.0f, %.0f", n, rs.median(n), rs.median(n+" B/op"), rs.median(n+" allocs/op")))
	}
	return strings.Join(s, "; ")
}

// grpcVersionOf is the grpc-go version exe was built with, read from
// its build information (go version -m).
func grpcVersionOf(exe string) string {
	out, err := exec.Command("go", "version", "-m", exe).Output()
	if err != nil {
		return "(unknown version)"
	}
	return grpcFromBuildInfo(string(out))
}

// grpcFromBuildInfo reads google.golang.org/grpc's version from go
// version -m's output.
func grpcFromBuildInfo(out string) string {
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && f[0] == "dep" && f[1] == "google.golang.org/grpc" {
			return f[2]
		}
	}
	return "(unknown version)"
}
