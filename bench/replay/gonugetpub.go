package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"

	"github.com/httpvs/httpvs/results"
)

// gonugetNames are the benchmark names of each shape, h1 first.
var gonugetNames = map[bool][]string{
	false: {"HTTP1_Request", "HTTP2_Request", "HTTP3_Request"},
	true:  {"HTTP1_ConcurrentRequests", "HTTP2_ConcurrentRequests", "HTTP3_ConcurrentRequests"},
}

// gonugetProgramRows runs gonuget's benchmarks themselves, rebuilt here
// (`replay --program gonuget`), each round one process running the six
// in a fresh random order, and holds their h2 and h3 ns/op ratios to
// the report's beside httpvs's own shape of the same benchmark (beside,
// by shape and column). A disagreement is taken apart by GOMAXPROCS.
func gonugetProgramRows(ctx context.Context, p sizes, beside map[string]results.Interval) ([]Row, string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, "", err
	}
	base, err := gonugetProgramRounds(ctx, self, p, p.benchRounds, nil)
	if err != nil {
		return nil, "", err
	}
	var rows []Row
	for _, parallel := range []bool{false, true} {
		names := gonugetNames[parallel]
		shape := pick(parallel, "concurrent (RunParallel)", "sequential")
		for i, col := range []string{"h2", "h3"} {
			pr := gonugetPub[parallel]["h1"].ns / gonugetPub[parallel][col].ns
			iv := base.ratio(names[i+1], names[0], true)
			v, fig, _ := ratioRule(pr, iv, 0)
			near := "not measured"
			if b, ok := beside[shape+" "+col]; ok {
				near = ivText(b)
			}
			rows = append(rows, Row{Source: srcGonuget, published: pr, iv: iv, col: names[i+1], Rule: "R1", Verdict: v,
				Claim: fmt.Sprintf("its benchmarks themselves, %s %s: %.0f ns/op vs h1 %.0f: %.2fx", shape, col, gonugetPub[parallel][col].ns, gonugetPub[parallel]["h1"].ns, pr),
				Setup: fmt.Sprintf("gonuget's Benchmark%s and Benchmark%s rebuilt here from its report's methodology (`replay --program gonuget`): an empty 200, the body closed unread, httptest servers for h1 and h2 (TLS), an http3.Server with 0-RTT allowed; each round one process running the six benchmarks in random order at -benchtime %s, %d rounds; %s",
					names[i+1], names[0], p.benchTime, p.benchRounds, facts.diff()),
				Figure: fmt.Sprintf("h1 %.0f, %s %.0f ns/op: %s; beside it, httpvs's shape of the same benchmark (above): %s", base.median(names[0]), col, base.median(names[i+1]), fig, near)})
		}
	}
	if err := gonugetProgramApart(ctx, self, p, rows); err != nil {
		return nil, "", err
	}
	var d []string
	for _, n := range append(gonugetNames[false], gonugetNames[true]...) {
		d = append(d, fmt.Sprintf("%s %.0f, %.0f, %.0f", n, base.median(n), base.median(n+" B/op"), base.median(n+" allocs/op")))
	}
	return rows, "gonuget's benchmarks themselves, rebuilt here (median ns/op, B/op, allocs/op; the report's B/op and allocs/op are in the rows above): " + strings.Join(d, ", ") + ".", nil
}

// gonugetProgramApart varies GOMAXPROCS for the program's rows that
// disagree: 1, and 12 (an M4 Pro's smaller core count), as the
// process's environment, in rounds of their own.
func gonugetProgramApart(ctx context.Context, self string, p sizes, rows []Row) error {
	var any bool
	for _, r := range rows {
		any = any || r.Verdict == disagrees
	}
	if !any {
		return nil
	}
	n := max(3, p.benchRounds/2)
	vary := map[string][]variation{}
	for _, procs := range gonugetProcs {
		rs, err := gonugetProgramRounds(ctx, self, p, n, []string{fmt.Sprintf("GOMAXPROCS=%d", procs)})
		if err != nil {
			return fmt.Errorf("GOMAXPROCS %d: %w", procs, err)
		}
		for _, parallel := range []bool{false, true} {
			names := gonugetNames[parallel]
			for _, c := range names[1:] {
				vary[c] = append(vary[c], variation{fmt.Sprintf("GOMAXPROCS %d (the program's environment)", procs), rs.ratio(c, names[0], true)})
			}
		}
	}
	for i, r := range rows {
		if r.Verdict == disagrees {
			rows[i].Note = takeApart(r.published, r.iv, vary[r.col]) + "; not varied: Go's version (gonuget's 1.21) and the machine (an M4 Pro)"
		}
	}
	return nil
}

// gonugetProgramRounds runs the rebuilt program n rounds after a warm-up
// one, all six benchmarks a round in a fresh random order, with env
// added to its environment, and keeps ns/op by benchmark name.
func gonugetProgramRounds(ctx context.Context, self string, p sizes, n int, env []string) (rounds, error) {
	all := append(append([]string(nil), gonugetNames[false]...), gonugetNames[true]...)
	return benchProgramRounds(ctx, "gonuget", self, nil, env, all, p, n)
}

// benchProgramRounds runs program (a --program of the replay at exe, with
// args before the benchmark names) n rounds after a warm-up one, names a
// round in a fresh random order, with env added to its environment, and
// keeps ns/op, B/op and allocs/op by benchmark name.
func benchProgramRounds(ctx context.Context, program, exe string, args, env, names []string, p sizes, n int) (rounds, error) {
	names = append([]string(nil), names...)
	out := rounds{}
	for r := -1; r < n; r++ {
		rand.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		argv := append(append([]string{"--program", program, "-benchtime", p.benchTime.String()}, args...), names...)
		cmd := exec.CommandContext(ctx, exe, argv...)
		cmd.Env = append(os.Environ(), env...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		b, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("%s: %w: %s", program, err, bytes.TrimSpace(stderr.Bytes()))
		}
		res, err := parseBenchLines(string(b))
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			if res[name].ns <= 0 {
				return nil, fmt.Errorf("%s printed no Benchmark%s", program, name)
			}
			if r >= 0 {
				out[name] = append(out[name], res[name].ns)
				out[name+" B/op"] = append(out[name+" B/op"], res[name].bytes)
				out[name+" allocs/op"] = append(out[name+" allocs/op"], res[name].allocs)
			}
		}
	}
	return out, nil
}
