package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

// The published figures the rebuilt #47840 program is held to.
const (
	pubGoClient = 7.1 / 40.1
	pubCurl     = 958.0 / 5397
)

// curlIV is row 1's interval (curl against httpvs's server), kept for
// the rebuilt program's curl row to stand beside.
var curlIV *results.Interval

// programSetting is one way of running the rebuilt #47840 program.
type programSetting struct {
	name     string
	args     []string // flags beyond -size
	env      []string // added to the program's environment
	separate bool     // the client in a process of its own (-s, then -get)
}

// issueSettings vary the rebuilt program one setting at a time: the
// handler's write size (the issue's source is not in the seeds), the
// processes' GOMAXPROCS, and the process layout.
var issueSettings = []programSetting{
	{name: "the handler's writes of " + defaults.WriteSize.Human() + " (httpvs's server's) instead of " + units.Bytes(issueWriteSize).Human(), args: []string{"-write", strconv.Itoa(int(defaults.WriteSize))}},
	{name: "the handler's writes of 16 KiB (one HTTP/2 frame each)", args: []string{"-write", strconv.Itoa(16 << 10)}},
	{name: "GOMAXPROCS 1 (the program's one process)", env: []string{"GOMAXPROCS=1"}},
	{name: "the client in a process of its own (-s, then -get), as httpvs's child server", separate: true},
}

// publishedSection runs golang/go#47840's program itself (rebuilt from
// the issue's text, `replay --program issue47840`) on loopback: its own
// Go-client downloads, and curl against its -s server, each in rounds
// beside httpvs's figure for the same claim (rows 1 and 2, this run).
func publishedSection(ctx context.Context, p sizes) ([]Row, string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, "", err
	}
	base := programSetting{name: "as published"}
	rs, err := programRounds(ctx, self, p.pubBytes, p.pubRounds, base)
	if err != nil {
		return nil, "", err
	}
	iv := rs.ratio("h2c", "h1", false)
	v, fig, _ := ratioRule(pubGoClient, iv, 0)
	goRow := Row{Source: src47840, Claim: "main.go itself: Go client from Go's server, 10 GB: h1 40.1 Gbps, h2c 7.1 Gbps: 0.18x", published: pubGoClient,
		Setup:  fmt.Sprintf("the issue's main.go rebuilt here from its text (its source is not in the seeds; `replay --program issue47840`): one process, h1 and h2c servers on loopback, %s handler writes, Go's client, io.Copy to io.Discard, h1 then h2c as the program does, %s each, %d rounds of the whole program; %s", units.Bytes(issueWriteSize).Human(), sizeText(p.pubBytes), p.pubRounds, facts.diff()),
		Figure: fmt.Sprintf("h1 %.1f Gbps, h2c %.1f Gbps (medians): %s; beside it, httpvs's download (the Go-client row above, same run): %s", rs.median("h1")*8/1e9, rs.median("h2c")*8/1e9, fig, downloadIV()),
		Rule:   "R1", Verdict: v, iv: iv}
	var detail []string
	detail = append(detail, fmt.Sprintf("main.go rebuilt, as published (MB/s): h1 %s; h2c %s", mbs(rs["h1"]), mbs(rs["h2c"])))
	if v == disagrees {
		var vs []variation
		for _, s := range issueSettings {
			vr, err := programRounds(ctx, self, p.pubBytes/2, p.pubRounds, s)
			if err != nil {
				return nil, "", fmt.Errorf("%s: %w", s.name, err)
			}
			vs = append(vs, variation{fmt.Sprintf("%s (%s downloads)", s.name, sizeText(p.pubBytes/2)), vr.ratio("h2c", "h1", false)})
		}
		goRow.Note = takeApart(pubGoClient, iv, vs) + "; Go's version is varied for httpvs's figure in the Go-client row above"
	}
	rows := []Row{goRow}
	if facts.curl != "" {
		cr, d, err := publishedCurl(ctx, self, p)
		if err != nil {
			return nil, "", err
		}
		rows, detail = append(rows, cr), append(detail, d)
	}
	return rows, "The published program itself, rebuilt here and run on loopback beside httpvs's figures: " + joinSentences(detail), nil
}

// publishedCurl is the issue's curl check against the rebuilt program's
// -s server, h1 and h2c in paired rounds, and, if it disagrees, the
// handler's write size and the server's GOMAXPROCS varied.
func publishedCurl(ctx context.Context, self string, p sizes) (Row, string, error) {
	run := func(s programSetting, size int64) (rounds, error) {
		return withIssueServer(ctx, self, s, func(urls []string) (rounds, error) {
			return measureRounds(p.pubRounds, []string{"h1", "h2c"}, true, func(col string) (float64, error) {
				u := urls[0]
				if col == "h2c" {
					u = urls[1]
				}
				return curlRate(ctx, u+"/"+strconv.FormatInt(size, 10), col == "h2c")
			})
		})
	}
	rs, err := run(programSetting{}, p.pubBytes)
	if err != nil {
		return Row{}, "", fmt.Errorf("curl against main.go: %w", err)
	}
	iv := rs.ratio("h2c", "h1", false)
	v, fig, _ := ratioRule(pubCurl, iv, 0)
	beside := "not measured"
	if curlIV != nil {
		beside = ivText(*curlIV)
	}
	row := Row{Source: src47840, Claim: "main.go -s itself with curl, 10 GB: h1 5397 MB/s, h2c 958 MB/s: 0.18x", published: pubCurl,
		Setup:  fmt.Sprintf("%s against the issue's main.go rebuilt here (`replay --program issue47840 -s`, %s handler writes), %s per transfer, %d rounds h1/h2c in random order; %s", facts.curl, units.Bytes(issueWriteSize).Human(), sizeText(p.pubBytes), p.pubRounds, facts.diff()),
		Figure: fmt.Sprintf("h1 %.0f MB/s, h2c %.0f MB/s (medians): %s; beside it, curl against httpvs's server (the first row, same run): %s", rs.median("h1")/1e6, rs.median("h2c")/1e6, fig, beside),
		Rule:   "R1", Verdict: v, iv: iv}
	detail := fmt.Sprintf("curl against main.go -s (MB/s): h1 %s; h2c %s", mbs(rs["h1"]), mbs(rs["h2c"]))
	if v != disagrees {
		return row, detail, nil
	}
	var vs []variation
	for _, s := range issueSettings[:3] {
		vr, err := run(s, p.pubBytes/2)
		if err != nil {
			return Row{}, "", fmt.Errorf("curl, %s: %w", s.name, err)
		}
		vs = append(vs, variation{fmt.Sprintf("%s (%s transfers)", s.name, sizeText(p.pubBytes/2)), vr.ratio("h2c", "h1", false)})
	}
	row.Note = takeApart(pubCurl, iv, vs) + "; curl's version not varied (one is installed)"
	return row, detail, nil
}

// programRounds runs the rebuilt program n rounds (after a warm-up),
// each one whole run of it, and keeps each run's h1 and h2c rates.
func programRounds(ctx context.Context, self string, size int64, n int, s programSetting) (rounds, error) {
	if s.separate {
		return withIssueServer(ctx, self, programSetting{env: s.env, args: s.args}, func(urls []string) (rounds, error) {
			return measureRounds(n, []string{"h1", "h2c"}, true, func(col string) (float64, error) {
				u, args := urls[0], []string{"-get"}
				if col == "h2c" {
					u, args = urls[1], []string{"-h2c", "-get"}
				}
				r, err := runIssue(ctx, self, append(args, u+"/"+strconv.FormatInt(size, 10)), s.env)
				return r[pick(col == "h2c", "HTTP/2.0", "HTTP/1.1")], err
			})
		})
	}
	out := rounds{}
	for i := -1; i < n; i++ {
		r, err := runIssue(ctx, self, append([]string{"-size", strconv.FormatInt(size, 10)}, s.args...), s.env)
		if err != nil {
			return nil, err
		}
		if r["HTTP/1.1"] <= 0 || r["HTTP/2.0"] <= 0 {
			return nil, fmt.Errorf("the program printed no rate for HTTP/1.1 or HTTP/2.0: %v", r)
		}
		if i >= 0 {
			out["h1"], out["h2c"] = append(out["h1"], r["HTTP/1.1"]), append(out["h2c"], r["HTTP/2.0"])
		}
	}
	return out, nil
}

// runIssue runs `self --program issue47840 args` and reads its rates.
func runIssue(ctx context.Context, self string, args, env []string) (map[string]float64, error) {
	cmd := exec.CommandContext(ctx, self, append([]string{"--program", "issue47840", "-for", "2m"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("issue47840 %v: %w: %s", args, err, bytes.TrimSpace(stderr.Bytes()))
	}
	return parseIssueOutput(string(out))
}

// withIssueServer starts the rebuilt program with -s (and s's flags and
// environment), calls fn with its h1 and h2c base URLs, and stops it by
// closing its standard input.
func withIssueServer(ctx context.Context, self string, s programSetting, fn func(urls []string) (rounds, error)) (rounds, error) {
	cmd := exec.CommandContext(ctx, self, append([]string{"--program", "issue47840", "-s", "-for", "5m"}, s.args...)...)
	cmd.Env = append(os.Environ(), s.env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() { in.Close(); cmd.Wait() }()
	urls, err := issueListening(bufio.NewReader(out))
	if err != nil {
		cmd.Process.Kill()
		return nil, err
	}
	return fn(urls)
}

// downloadIV is httpvs's download h2c/h1 interval in this run's
// loopback section, as text.
func downloadIV() string {
	if loopback == nil {
		return "not measured"
	}
	c := loopback.Cell("download", "h2c")
	if c == nil || c.VsBaseline == nil {
		return "not measured"
	}
	return ivText(*c.VsBaseline)
}

func joinSentences(s []string) string {
	var b bytes.Buffer
	for _, x := range s {
		b.WriteString(x + ". ")
	}
	return string(bytes.TrimSpace(b.Bytes()))
}
