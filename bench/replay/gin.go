package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/httpvs/httpvs/transport"
)

// ginFDLimit is the open-file limit the gin replay runs under, so that
// its leak meets the limit within seconds (the post's macOS met its own).
const ginFDLimit = 1024

// ginResult is what one transport did in the post's shape.
type ginResult struct {
	requests, ok, dials, emfile, timeouts, other int64
	acceptEMFILE                                 int64 // the server's "accept: too many open files" lines
	recovered                                    bool  // a request after the leak was released succeeded
}

// ginSection replays the gin post's BenchmarkHTTPRunParallel and
// BenchmarkHTTP2RunParallel: GOMAXPROCS 4 goroutines call client.Do and
// never read or close the response body (as the post's code), against a
// server with no routes (gin.New(): 404). Over HTTP/1.1 a connection
// whose body is not consumed is never reused, so each request dials one
// until the open-file limit stops the accepts and the dials.
func ginSection(ctx context.Context, p sizes) ([]Row, string, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return nil, "", err
	}
	low := lim
	low.Cur = min(lim.Cur, ginFDLimit)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		return nil, "", err
	}
	defer syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	old := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(old)
	h1, err := ginRun(ctx, p, false)
	if err != nil {
		return nil, "", err
	}
	h2, err := ginRun(ctx, p, true)
	if err != nil {
		return nil, "", err
	}
	setup := fmt.Sprintf("%d requests from 4 goroutines (GOMAXPROCS 4, as the post's RunParallel), bodies never read or closed, a 404 handler, client and server in this process under an open-file limit of %d (the post: macOS, go test, limit unstated), client timeout 2 s", p.ginRequests, low.Cur)
	rows := []Row{
		{Source: srcGin, Claim: "HTTP/1.1 RunParallel: 15,349 connections (bodies left unread: one per request)", Setup: setup, Rule: "R2",
			Verdict: pick(h1.requests > 0 && float64(h1.dials) >= 0.9*float64(h1.ok+h1.timeouts), agrees, disagrees),
			Figure:  fmt.Sprintf("h1: %d connections opened for %d requests answered and %d timed out", h1.dials, h1.ok, h1.timeouts)},
		{Source: srcGin, Claim: `HTTP/1.1: "accept: too many open files", the server retrying`, Setup: setup, Rule: "R2",
			Verdict: pick(h1.acceptEMFILE+h1.emfile > 0, agrees, disagrees),
			Figure:  fmt.Sprintf("h1: server accept errors %d, client dials refused with EMFILE %d, other errors %d; after the bodies were closed a new request %s", h1.acceptEMFILE, h1.emfile, h1.other, pick(h1.recovered, "succeeded", "failed"))},
		{Source: srcGin, Claim: "HTTP/2 RunParallel: one connection", Setup: setup + "; h2 over TLS as the post's http2.Transport", Rule: "R2",
			Verdict: pick(h2.dials == 1 && h2.ok > 0, agrees, disagrees),
			Figure:  fmt.Sprintf("h2: %d connection(s) for %d requests answered, %d errors", h2.dials, h2.ok, h2.emfile+h2.timeouts+h2.other)},
	}
	return rows, fmt.Sprintf("The gin post's shape under an open-file limit of %d: h1 %+v; h2 %+v.", low.Cur, h1, h2), nil
}

// lineCounter counts the log lines that hold a phrase.
type lineCounter struct {
	phrase string
	n      atomic.Int64
}

func (c *lineCounter) Write(b []byte) (int, error) {
	if strings.Contains(string(b), c.phrase) {
		c.n.Add(1)
	}
	return len(b), nil
}

func ginRun(ctx context.Context, p sizes, h2 bool) (ginResult, error) {
	accept := &lineCounter{phrase: "too many open files"}
	so := transport.ServerOptions{Handler: http.NotFoundHandler(), NoH3: true, ErrorLog: log.New(accept, "", 0)}
	pr := transport.H1
	if h2 {
		so.TLSListen, pr = "127.0.0.1:0", transport.H2
	} else {
		so.Listen = "127.0.0.1:0"
	}
	ts, err := transport.NewServer(so)
	if err != nil {
		return ginResult{}, err
	}
	defer ts.Close()
	var res ginResult
	tr := ginTransport(h2, &res.dials)
	c := &http.Client{Timeout: 2 * time.Second, Transport: tr}
	// go test runs a benchmark once with b.N = 1 before its measured runs:
	// that first request dials the connection HTTP/2 then reuses.
	first, err := c.Get(ts.URL(pr) + "/")
	if err != nil {
		return res, err
	}
	leaked := append(ginLeak(ctx, c, ts.URL(pr)+"/", p.ginRequests, &res), first.Body)
	for _, b := range leaked {
		b.Close()
	}
	tr.CloseIdleConnections()
	time.Sleep(300 * time.Millisecond)
	fresh := &http.Client{Timeout: 5 * time.Second, Transport: ginTransport(h2, new(int64))}
	if resp, err := fresh.Get(ts.URL(pr) + "/"); err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		res.recovered = resp.StatusCode == http.StatusNotFound
	}
	res.acceptEMFILE = accept.n.Load()
	return res, nil
}

// ginTransport is Go's default transport (h1), or HTTP/2 only over TLS
// trusting any certificate (the post's http2.Transport), counting dials.
func ginTransport(h2 bool, dials *int64) *http.Transport {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	var d net.Dialer
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err == nil {
			atomic.AddInt64(dials, 1)
		}
		return c, err
	}
	if h2 {
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true}
		tr.Protocols = new(http.Protocols)
		tr.Protocols.SetHTTP2(true)
	}
	return tr
}

// ginLeak sends n requests from GOMAXPROCS goroutines, never touching the
// bodies, within 30 s; it returns the bodies for the caller to close.
func ginLeak(ctx context.Context, c *http.Client, url string, n int, res *ginResult) []io.Closer {
	var mu sync.Mutex
	var leaked []io.Closer
	var next atomic.Int64
	deadline := time.Now().Add(30 * time.Second)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for next.Add(1) <= int64(n) && time.Now().Before(deadline) && ctx.Err() == nil {
				resp, err := c.Get(url)
				atomic.AddInt64(&res.requests, 1)
				if err != nil {
					ginCount(err, res)
					continue
				}
				atomic.AddInt64(&res.ok, 1)
				mu.Lock()
				leaked = append(leaked, resp.Body)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return leaked
}

func ginCount(err error, res *ginResult) {
	var ne net.Error
	switch {
	case errors.Is(err, syscall.EMFILE) || strings.Contains(err.Error(), "too many open files"):
		atomic.AddInt64(&res.emfile, 1)
	case errors.As(err, &ne) && ne.Timeout():
		atomic.AddInt64(&res.timeouts, 1)
	default:
		atomic.AddInt64(&res.other, 1)
	}
}
