package main

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"strconv"
	"strings"

	"github.com/httpvs/httpvs/internal/defaults"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
)

// curlSection replays #47840's curl check: `curl -o /dev/null URL` and
// `curl --http2-prior-knowledge` against httpvs's server on loopback,
// h1 and h2c paired by round, h1 twice (A/A) for the noise floor; then,
// if it disagrees, the settings that could explain it varied one at a
// time: the server's write size and the server's GOMAXPROCS.
func curlSection(ctx context.Context, p sizes) ([]Row, string, error) {
	if facts.curl == "" {
		return []Row{{Source: src47840, Claim: "curl h1 5397 MB/s, h2c 958 MB/s: 0.18x", Verdict: notComparable, Note: "curl is not installed"}}, "", nil
	}
	const pub = 958.0 / 5397
	rs, err := curlRounds(ctx, server.Options{}, 0, p.curlBytes, p.curlRounds, true)
	if err != nil {
		return nil, "", err
	}
	iv := rs.ratio("h2c", "h1", false)
	curlIV = &iv
	nf := noiseOf(rs.ratio("h1 A/A", "h1", false))
	v, fig, noise := ratioRule(pub, iv, nf)
	row := Row{
		Source: src47840, Claim: "curl from Go's server, loopback, 10 GB: h1 5397 MB/s, h2c 958 MB/s: 0.18x", published: pub,
		Setup:  fmt.Sprintf("%s against httpvs's server (Go's net/http, in this program, %s writes), %s per transfer, %d rounds h1/h2c/h1 paired in random order; differs: %s, %s (the issue's curl version unstated), httpvs's payload server not the issue's main.go", facts.curl, defaults.WriteSize.Human(), sizeText(p.curlBytes), p.curlRounds, facts.diff(), facts.curl),
		Figure: fmt.Sprintf("h1 %.0f MB/s, h2c %.0f MB/s (medians): %s", rs.median("h1")/1e6, rs.median("h2c")/1e6, fig),
		Rule:   "R1", Verdict: v, Noise: noise,
	}
	detail := fmt.Sprintf("curl rounds (MB/s): h1 %s; h2c %s; h1 A/A %s", mbs(rs["h1"]), mbs(rs["h2c"]), mbs(rs["h1 A/A"]))
	if v != disagrees {
		return []Row{row}, detail, nil
	}
	var vs []variation
	for _, s := range []struct {
		name  string
		opts  server.Options
		procs int
	}{
		{"server writes of 32 KiB (io.Copy's buffer) instead of " + defaults.WriteSize.Human(), server.Options{WriteSize: 32 << 10}, 0},
		{"server writes of 16 KiB (one HTTP/2 frame each)", server.Options{WriteSize: 16 << 10}, 0},
		{"GOMAXPROCS 1 in the server's process", server.Options{}, 1},
	} {
		vr, err := curlRounds(ctx, s.opts, s.procs, p.curlBytes/3, p.curlRounds, false)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", s.name, err)
		}
		vs = append(vs, variation{s.name + fmt.Sprintf(" (%s transfers)", sizeText(p.curlBytes/3)), vr.ratio("h2c", "h1", false)})
	}
	row.Note = takeApart(pub, iv, vs) + "; not varied for this row: Go's version (the Go-client row varies it) and curl's"
	return []Row{row}, detail, nil
}

// curlRounds serves opts in this process (GOMAXPROCS procs while it
// measures, when not zero) and measures curl's h1 and h2c downloads of
// size bytes in paired rounds, with h1 twice when aa.
func curlRounds(ctx context.Context, opts server.Options, procs int, size int64, n int, aa bool) (rounds, error) {
	ts, err := transport.NewServer(transport.ServerOptions{Handler: server.New(opts).Handler(), Listen: "127.0.0.1:0"})
	if err != nil {
		return nil, err
	}
	defer ts.Close()
	if procs > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	}
	url := ts.URL(transport.H1) + "/" + strconv.FormatInt(size, 10)
	cols := []string{"h1", "h2c"}
	if aa {
		cols = append(cols, "h1 A/A")
	}
	return measureRounds(n, cols, true, func(col string) (float64, error) {
		return curlRate(ctx, url, col == "h2c")
	})
}

// curlRate runs one curl download and returns its bytes per second as
// curl measured it (speed_download), refusing a short transfer.
func curlRate(ctx context.Context, url string, h2c bool) (float64, error) {
	args := []string{"-sS", "-o", "/dev/null", "-w", "%{speed_download} %{size_download} %{http_version}"}
	if h2c {
		args = append(args, "--http2-prior-knowledge")
	}
	out, err := exec.CommandContext(ctx, "curl", append(args, url)...).Output()
	if err != nil {
		return 0, fmt.Errorf("curl %s: %w", url, err)
	}
	f := strings.Fields(string(out))
	if len(f) != 3 {
		return 0, fmt.Errorf("curl printed %q", out)
	}
	want := "1.1"
	if h2c {
		want = "2"
	}
	if f[2] != want {
		return 0, fmt.Errorf("curl spoke HTTP/%s, want %s", f[2], want)
	}
	rate, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0, err
	}
	size, _ := strconv.ParseInt(f[1], 10, 64)
	if !strings.HasSuffix(url, "/"+f[1]) {
		return 0, fmt.Errorf("curl moved %d bytes of %s", size, url)
	}
	return rate, nil
}

func mbs(v []float64) string {
	var s []string
	for _, x := range v {
		s = append(s, strconv.FormatFloat(x/1e6, 'f', 0, 64))
	}
	return strings.Join(s, ", ")
}

func sizeText(n int64) string {
	if n >= 1e9 {
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	}
	return fmt.Sprintf("%d MB", n/1e6)
}
