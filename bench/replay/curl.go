package main

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
)

// curlSection replays #47840's curl check: `curl -o /dev/null URL` and
// `curl --http2-prior-knowledge` against httpvs's server on loopback,
// h1 and h2c paired by round, h1 twice (A/A) for the noise floor.
func curlSection(ctx context.Context, p sizes) ([]Row, string, error) {
	if _, err := exec.LookPath("curl"); err != nil {
		return []Row{{Source: src47840, Claim: "curl h1 5397 MB/s, h2c 958 MB/s: 0.18x", Verdict: notComparable, Note: "curl is not installed"}}, "", nil
	}
	ts, err := transport.NewServer(transport.ServerOptions{Handler: server.New(server.Options{}).Handler(), Listen: "127.0.0.1:0"})
	if err != nil {
		return nil, "", err
	}
	defer ts.Close()
	url := ts.URL(transport.H1) + "/" + strconv.FormatInt(p.curlBytes, 10)
	rs, err := measureRounds(p.curlRounds, []string{"h1", "h2c", "h1 A/A"}, true, func(col string) (float64, error) {
		return curlRate(ctx, url, col == "h2c")
	})
	if err != nil {
		return nil, "", err
	}
	iv := rs.ratio("h2c", "h1", false)
	nf := noiseOf(rs.ratio("h1 A/A", "h1", false))
	v, fig := ratioRule(958.0/5397, iv, nf)
	row := Row{
		Source: src47840, Claim: "curl from Go's server, loopback, 10 GB: h1 5397 MB/s, h2c 958 MB/s: 0.18x", published: 958.0 / 5397,
		Setup:  fmt.Sprintf("curl %s against httpvs's server (Go's net/http, in this program), %s per transfer, %d rounds h1/h2c/h1 paired in random order; differs: %s, curl 7.88 not the 2021 one, httpvs's payload server not the issue's main.go", curlVersion(), sizeText(p.curlBytes), p.curlRounds, machineDiff),
		Figure: fmt.Sprintf("h1 %.0f MB/s, h2c %.0f MB/s (medians): %s", rs.median("h1")/1e6, rs.median("h2c")/1e6, fig),
		Rule:   "R1", Verdict: v,
	}
	detail := fmt.Sprintf("curl rounds (MB/s): h1 %s; h2c %s; h1 A/A %s", mbs(rs["h1"]), mbs(rs["h2c"]), mbs(rs["h1 A/A"]))
	return []Row{row}, detail, nil
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

func curlVersion() string {
	out, err := exec.Command("curl", "--version").Output()
	if err != nil {
		return "curl"
	}
	f := strings.Fields(string(out))
	if len(f) < 2 {
		return "curl"
	}
	return f[0] + " " + f[1]
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
