package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// issue47840Main is golang/go#47840's main.go rebuilt from the issue's
// text (the seed has its output and flags, not its source): one process
// serves GET /N (N bytes) over HTTP/1.1 on one port and over cleartext
// HTTP/2 on another, then downloads /size from each with Go's client,
// HTTP/1.1 first, and prints "received N bytes in D = X Gbps" for each;
// -s serves only (for curl), until standard input closes or -for ends.
// -get URL downloads once (h2c when -h2c) without serving, for a
// client in a process of its own. Addresses are loopback only, the
// ports chosen by the system (the issue's :8765 and :9876 may be taken).
// It is started by replay as `replay --program issue47840 ARGS`.
func issue47840Main(args []string, stdout io.Writer) int {
	fs := flag.NewFlagSet("issue47840", flag.ContinueOnError)
	serveOnly := fs.Bool("s", false, "serve only, until standard input closes or -for ends")
	size := fs.Int64("size", 10_000_000_000, "bytes each download fetches")
	write := fs.Int("write", issueWriteSize, "bytes each Write of the handler carries")
	get := fs.String("get", "", "download this URL once, serving nothing")
	h2c := fs.Bool("h2c", false, "with -get: cleartext HTTP/2 with prior knowledge")
	limit := fs.Duration("for", 10*time.Minute, "the longest the program runs")
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || *size <= 0 || *write <= 0 {
		fmt.Fprintln(os.Stderr, "issue47840: flags: -s, -size N (>0), -write N (>0), -get URL [-h2c], -for D")
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), *limit)
	defer cancel()
	if *get != "" {
		if err := issueDownload(ctx, stdout, *get, *h2c); err != nil {
			fmt.Fprintln(os.Stderr, "issue47840:", err)
			return 1
		}
		return 0
	}
	urls, stop, err := issueServe(stdout, *write)
	if err != nil {
		fmt.Fprintln(os.Stderr, "issue47840:", err)
		return 1
	}
	defer stop()
	if *serveOnly {
		done := make(chan struct{})
		go func() { io.Copy(io.Discard, os.Stdin); close(done) }()
		select {
		case <-done:
		case <-ctx.Done():
		}
		return 0
	}
	for i, u := range urls {
		if err := issueDownload(ctx, stdout, u+"/"+strconv.FormatInt(*size, 10), i == 1); err != nil {
			fmt.Fprintln(os.Stderr, "issue47840:", err)
			return 1
		}
	}
	return 0
}

// issueWriteSize is the rebuilt handler's write size by default: the
// issue's source is not in the seeds, and io.Copy, the plain way to
// write a body, writes 32 KiB at a time.
const issueWriteSize = 32 << 10

// issueServe starts the two servers on loopback, as the issue's
// output names them, and returns their base URLs: HTTP/1.1, then h2c.
func issueServe(stdout io.Writer, write int) ([]string, func(), error) {
	buf := make([]byte, write)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, "/"), 10, 64)
		if err != nil || n < 0 {
			http.Error(w, "want GET /N", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Length", strconv.FormatInt(n, 10))
		for n > 0 {
			k := min(n, int64(len(buf)))
			if _, err := w.Write(buf[:k]); err != nil {
				return
			}
			n -= k
		}
	})
	var urls []string
	var servers []*http.Server
	stop := func() {
		for _, s := range servers {
			s.Close()
		}
	}
	for _, h2 := range []bool{false, true} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			stop()
			return nil, nil, err
		}
		s := &http.Server{Handler: h, Protocols: new(http.Protocols)}
		s.Protocols.SetHTTP1(!h2)
		s.Protocols.SetUnencryptedHTTP2(h2)
		servers = append(servers, s)
		go s.Serve(ln)
		fmt.Fprintf(stdout, "server created and listening at %s (%s)\n", ln.Addr(), pick(h2, "http/2 cleartext", "http1.1"))
		urls = append(urls, "http://"+ln.Addr().String())
	}
	return urls, stop, nil
}

// issueDownload is the issue's client: GET url with Go's client,
// io.Copy the body to io.Discard, and print the rate.
func issueDownload(ctx context.Context, stdout io.Writer, url string, h2c bool) error {
	tr := &http.Transport{Protocols: new(http.Protocols)}
	tr.Protocols.SetHTTP1(!h2c)
	tr.Protocols.SetUnencryptedHTTP2(h2c)
	defer tr.CloseIdleConnections()
	fmt.Fprintln(stdout, "downloading", url)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	start := time.Now()
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	fmt.Fprintln(stdout, "receiving data with", resp.Proto)
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK || resp.ContentLength != n {
		return fmt.Errorf("%s: %s, %d of %d bytes", url, resp.Status, n, resp.ContentLength)
	}
	d := time.Since(start)
	fmt.Fprintf(stdout, "received %d bytes in %s = %.1f Gbps\n", n, d, float64(n)*8/d.Seconds()/1e9)
	return nil
}

// parseIssueOutput reads the issue's output: the rate in bytes a
// second of each "received N bytes in D = X Gbps" line, keyed by the
// protocol the line before named ("HTTP/1.1" or "HTTP/2.0").
func parseIssueOutput(out string) (map[string]float64, error) {
	rates := map[string]float64{}
	proto := ""
	for _, line := range strings.Split(out, "\n") {
		if p, ok := strings.CutPrefix(line, "receiving data with "); ok {
			proto = strings.TrimSpace(p)
			continue
		}
		var n int64
		var d string
		if _, err := fmt.Sscanf(line, "received %d bytes in %s", &n, &d); err != nil {
			continue
		}
		dur, err := time.ParseDuration(d)
		if err != nil || dur <= 0 || proto == "" {
			return nil, fmt.Errorf("unreadable line %q", line)
		}
		rates[proto] = float64(n) / dur.Seconds()
	}
	if len(rates) == 0 {
		return nil, errors.New("no \"received\" line")
	}
	return rates, nil
}

// issueListening reads the addresses the -s server printed, in order.
func issueListening(r *bufio.Reader) ([]string, error) {
	var urls []string
	for len(urls) < 2 {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("the server printed no address: %w", err)
		}
		if a, ok := strings.CutPrefix(line, "server created and listening at "); ok {
			urls = append(urls, "http://"+strings.Fields(a)[0])
		}
	}
	return urls, nil
}
