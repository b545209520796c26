package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
)

// parallelResult is one transport's many downloads at once.
type parallelResult struct {
	bytes, ok, conns int64
	errs             map[string]int
	took             time.Duration
}

// parallelSection replays the fork's "1000 requests to download 1MB
// simultaneously", where HTTP/1.1 "receives some errors such as
// connection reset by peer" (it received 133 MB of 1 GB) and HTTP/2 all
// of it: 1000 goroutines, one GET of 1 MB each, h1 (a connection each)
// and h2c (one), errors counted by kind; h2c again with Go's default
// client (the fork's), the one setting httpvs's client changes
// (StrictMaxConcurrentRequests: it queues streams on one connection
// instead of dialing more). Then the fork's client read counts.
func parallelSection(ctx context.Context, p sizes) ([]Row, string, error) {
	ts, err := transport.NewServer(transport.ServerOptions{Handler: server.New(server.Options{}).Handler(), Listen: "127.0.0.1:0"})
	if err != nil {
		return nil, "", err
	}
	defer ts.Close()
	arms := []struct {
		name string
		pr   transport.Protocol
		std  bool
	}{{"h1", transport.H1, false}, {"h2c", transport.H2C, false}, {"h2c, Go's default client", transport.H2C, true}}
	got := map[string]parallelResult{}
	for _, a := range arms {
		do, closeFn, err := parallelClient(a.pr, a.std)
		if err != nil {
			return nil, "", err
		}
		got[a.name] = parallelRun(ctx, ts, a.pr, do, p.parallel, 1e6, pick3(p.quick, 20, 30))
		closeFn()
	}
	h1, h2, std := got["h1"], got["h2c"], got["h2c, Go's default client"]
	somax, _ := os.ReadFile("/proc/sys/net/core/somaxconn")
	row := Row{Source: srcFork, Claim: "1000 x 1 MB at once: HTTP/1.1 hits \"connection reset by peer\" (133 MB of 1000 MB received); HTTP/2 receives all",
		Setup:  fmt.Sprintf("%d goroutines, one GET /1000000 each, httpvs's server in this process, httpvs's clients (h1 with no connection limit; h2c), each arm bounded to %d s; Linux listen backlog net.core.somaxconn=%s (the fork: macOS, default 128)", p.parallel, pick3(p.quick, 20, 30), strings.TrimSpace(string(somax))),
		Figure: "h1: " + h1.String(p.parallel) + "; h2c: " + h2.String(p.parallel), Rule: "R2"}
	switch {
	case len(h1.errs) > 0 && len(h2.errs) == 0:
		row.Verdict = agrees
	default:
		row.Verdict = disagrees
		row.Note = parallelNote(h1, h2, std, p.parallel, strings.TrimSpace(string(somax)))
	}
	reads, err := forkReads(ctx, ts, p.readBytes)
	if err != nil {
		return nil, "", err
	}
	return []Row{row, reads}, "", nil
}

// parallelNote takes the 1000-download row apart: each arm that parts
// from the fork's, and the setting varied for it.
func parallelNote(h1, h2, std parallelResult, n int, somax string) string {
	var parts []string
	if len(h1.errs) == 0 {
		parts = append(parts, fmt.Sprintf("h1 had no errors here: open: varied nothing for it; the listen backlog (net.core.somaxconn=%s here, the fork's macOS 128) is system-wide on this shared machine and was left as it is", somax))
	} else {
		parts = append(parts, "h1 failed as the fork's did")
	}
	switch {
	case h2.ok == int64(n):
		parts = append(parts, "h2c received all, as the fork's did")
	case std.ok == int64(n):
		parts = append(parts, fmt.Sprintf("h2c with httpvs's client, which sets HTTP2.StrictMaxConcurrentRequests (streams past the server's limit queue on one connection), stalled; varying only that, to Go's default client (which dials more connections past the limit): %s: cause: StrictMaxConcurrentRequests in httpvs's client (golang/go#70809 reports stalls under it)", std.String(n)))
	default:
		parts = append(parts, fmt.Sprintf("h2c stalled with httpvs's client and with Go's default client (%s): open: varied the client; neither received all", std.String(n)))
	}
	return strings.Join(parts, ". ")
}

func (r parallelResult) String(n int) string {
	return fmt.Sprintf("%d of %d received (%d MB) over %d connection(s) in %s, errors %s", r.ok, n, r.bytes/1e6, r.conns, r.took.Round(time.Millisecond), errText(r.errs))
}

// parallelClient is httpvs's client for pr, or Go's default transport
// speaking only pr (the fork's client).
func parallelClient(pr transport.Protocol, std bool) (func(*http.Request) (*http.Response, error), func(), error) {
	if std {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.Protocols = new(http.Protocols)
		tr.Protocols.SetUnencryptedHTTP2(pr == transport.H2C)
		tr.Protocols.SetHTTP1(pr == transport.H1)
		return tr.RoundTrip, tr.CloseIdleConnections, nil
	}
	c, err := transport.NewClient(transport.ClientOptions{Protocol: pr})
	if err != nil {
		return nil, nil, err
	}
	return c.Do, func() { c.Close() }, nil
}

func parallelRun(ctx context.Context, ts *transport.Server, pr transport.Protocol, do func(*http.Request) (*http.Response, error), n int, size int64, secs int) parallelResult {
	before := ts.Counters().Connections[pr.String()]
	url := fmt.Sprintf("%s/%d", ts.URL(pr), size)
	res := parallelResult{errs: map[string]int{}}
	var mu sync.Mutex
	var bytes, ok atomic.Int64
	ctx, cancel := context.WithTimeout(ctx, time.Duration(secs)*time.Second)
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			nb, err := parallelGet(ctx, do, url)
			bytes.Add(nb)
			if err == nil && nb == size {
				ok.Add(1)
				return
			}
			kind := "short body"
			if err != nil {
				kind = transport.Classify(err).String()
			}
			mu.Lock()
			res.errs[kind]++
			mu.Unlock()
		})
	}
	wg.Wait()
	res.took, res.bytes, res.ok = time.Since(start), bytes.Load(), ok.Load()
	res.conns = ts.Counters().Connections[pr.String()] - before
	return res
}

func parallelGet(ctx context.Context, do func(*http.Request) (*http.Response, error), url string) (int64, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return io.Copy(io.Discard, resp.Body)
}

func errText(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	var s []string
	for k, v := range m {
		if len(k) > 80 {
			k = k[:80]
		}
		s = append(s, fmt.Sprintf("%d x %s", v, k))
	}
	sort.Strings(s)
	return strings.Join(s, "; ")
}

// forkReads is the fork's client statistics for one download ("189969
// write ops, 2360568 buff" over h1, "429444 write ops, 966656 buff" over
// h2 for 10 GB): the body read with a large buffer, counting the reads
// and the largest, h1 against h2c, httpvs's clients.
func forkReads(ctx context.Context, ts *transport.Server, size int64) (Row, error) {
	r := Row{Source: srcFork, Claim: "client write ops for 10 GB: h1 189,969 (largest 2,360,568 bytes), h2 429,444 (966,656): 2.26x as many over h2", Rule: "R3", published: 429444.0 / 189969,
		Setup: fmt.Sprintf("one %s download each over h1 and h2c from httpvs's server in this process, the body read with a 4 MiB buffer (the fork's reads returned up to 2.4 MB), reads counted, the median of 3 downloads each", sizeText(size))}
	reads, largest, err := readPair(ctx, ts, size, 4<<20)
	if err != nil {
		return r, err
	}
	got := float64(reads[1]) / float64(reads[0])
	r.Verdict = countRule(r.published, got)
	if r.Verdict == disagrees {
		var parts, causes []string
		for _, buf := range []int{64 << 10, 1 << 20} {
			vr, _, err := readPair(ctx, ts, size/5, buf)
			if err != nil {
				return r, err
			}
			g := float64(vr[1]) / float64(vr[0])
			parts = append(parts, fmt.Sprintf("a %d KiB read buffer (%s downloads): h1 %d, h2c %d reads: %.2fx", buf>>10, sizeText(size/5), vr[0], vr[1], g))
			if countRule(r.published, g) == agrees {
				causes = append(causes, fmt.Sprintf("the read buffer (%d KiB)", buf>>10))
			}
		}
		r.Note = "the fork does not state its read buffer (its largest reads bound it from below); varied one at a time: " + strings.Join(parts, "; ")
		if len(causes) > 0 {
			r.Note += fmt.Sprintf("; cause: %s (the ratio falls within R3 of the published %.2fx when set so)", strings.Join(causes, " or "), r.published)
		} else {
			r.Note += fmt.Sprintf("; open: varied the read buffer (64 KiB, 1 MiB, 4 MiB); none moved it within R3 of the published %.2fx", r.published)
		}
	}
	r.Figure = fmt.Sprintf("h1 %d reads (largest %d bytes), h2c %d reads (largest %d): %.2fx as many over h2c (per 10 GB: %.0f and %.0f)",
		reads[0], largest[0], reads[1], largest[1], got, float64(reads[0])*1e10/float64(size), float64(reads[1])*1e10/float64(size))
	return r, nil
}

// readPair is medianReads over h1 and then h2c.
func readPair(ctx context.Context, ts *transport.Server, size int64, buf int) (reads [2]int64, largest [2]int, err error) {
	for i, pr := range []transport.Protocol{transport.H1, transport.H2C} {
		if reads[i], largest[i], err = medianReads(ctx, ts, pr, size, buf); err != nil {
			return reads, largest, err
		}
	}
	return reads, largest, nil
}

// medianReads is the median read count of three downloads over pr, and
// the largest read seen: how many reads a transfer takes moves from one
// download to the next with how much arrived between reads.
func medianReads(ctx context.Context, ts *transport.Server, pr transport.Protocol, size int64, buf int) (int64, int, error) {
	c, err := transport.NewClient(transport.ClientOptions{Protocol: pr})
	if err != nil {
		return 0, 0, err
	}
	defer c.Close()
	var counts []int64
	largest := 0
	for range 3 {
		n, l, err := countReads(ctx, c, fmt.Sprintf("%s/%d", ts.URL(pr), size), size, buf)
		if err != nil {
			return 0, 0, err
		}
		counts, largest = append(counts, n), max(largest, l)
	}
	slices.Sort(counts)
	return counts[1], largest, nil
}

func countReads(ctx context.Context, c *transport.Client, url string, size int64, bufSize int) (int64, int, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return 0, 0, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	buf := make([]byte, bufSize)
	var n, total int64
	largest := 0
	for {
		k, err := resp.Body.Read(buf)
		if k > 0 {
			n++
			total += int64(k)
			largest = max(largest, k)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return n, largest, err
		}
	}
	if total != size {
		return n, largest, fmt.Errorf("read %d of %d bytes", total, size)
	}
	return n, largest, nil
}
