package peers

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/units"
)

// testSize is the payload the server tests download: odd, so that a
// short or padded body shows.
const testSize = units.Bytes(1_000_003)

// TestServers starts each installed server peer, downloads a payload over
// every transport it claims, checks the byte count and the transport,
// uploads to its sink where it has one, and checks that Stop leaves no
// process behind.
func TestServers(t *testing.T) {
	for _, name := range []string{"h2o", "nginx", "caddy", "nghttpd"} {
		t.Run(name, func(t *testing.T) {
			requirePeer(t, name)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			s, err := Start(ctx, name, ServerOptions{Sizes: []units.Bytes{testSize, 0}})
			if err != nil {
				t.Fatal(err)
			}
			pids := s.PIDs()
			if len(pids) == 0 {
				t.Error("no live process after Start")
			}
			for _, p := range s.Peer.Transports {
				t.Run(p.String(), func(t *testing.T) { checkServer(t, ctx, s, p) })
			}
			if err := s.Stop(); err != nil {
				t.Fatal(err)
			}
			if left := s.PIDs(); len(left) != 0 {
				t.Fatalf("processes %v left after Stop (had %v)", left, pids)
			}
			if exists(s.l.dir) {
				t.Fatalf("directory %s left after Stop", s.l.dir)
			}
		})
	}
}

func checkServer(t *testing.T, ctx context.Context, s *Server, p transport.Protocol) {
	c, err := transport.NewClient(transport.ClientOptions{Protocol: p, RootCAs: transport.CertPool(s.Cert())})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, size := range []units.Bytes{testSize, 0} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.PayloadURL(p, size), nil)
		resp, err := c.Do(req) // c refuses a response over another transport
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || n != int64(size) {
			t.Fatalf("GET %s: %s, %d bytes, %v; want 200, %d bytes", req.URL, resp.Status, n, err, size)
		}
		if got := transport.OfResponse(resp); got != p {
			t.Fatalf("GET %s: answered over %s (%s), want %s", req.URL, got, resp.Proto, p)
		}
	}
	if u := s.SinkURL(p); u != "" {
		checkSink(t, ctx, c, u)
	}
	checkNoStall(t, ctx, c, s.URL(p)+SmallPath)
}

// stallRequests is how many sequential small requests checkNoStall times;
// stallTime is a request that waited out a delayed ACK (Linux's is 40 ms;
// the small object answers in well under a millisecond here).
const (
	stallRequests = 20
	stallTime     = 30 * time.Millisecond
)

// checkNoStall GETs url stallRequests times in a row over one connection
// and fails when most of them took stallTime or longer: a server that
// writes a response in pieces and waits on Nagle and the client's delayed
// ACK (nginx 1.22's HTTP/2 over sendfile did: 44 ms each) measures the
// stall, not the protocol. A busy machine delays a few requests, not most.
func checkNoStall(t *testing.T, ctx context.Context, c *transport.Client, url string) {
	var slow []time.Duration
	for range stallRequests {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		start := time.Now()
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		took := time.Since(start)
		if err != nil || resp.StatusCode != http.StatusOK || n != int64(len(smallBody)) {
			t.Fatalf("GET %s: %s, %d bytes, %v; want 200, %d bytes", url, resp.Status, n, err, len(smallBody))
		}
		if took >= stallTime {
			slow = append(slow, took)
		}
	}
	if len(slow) > stallRequests/2 {
		t.Errorf("GET %s: %d of %d sequential requests took %v or more (%v): the server stalls each response", url, len(slow), stallRequests, stallTime, slow)
	}
}

// sinkSize is the upload checkSink sends: above every peer's in-memory
// buffer, odd.
const sinkSize = 20_000_003

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// checkSink PUTs sinkSize bytes to url and checks the server answered 2xx
// after the whole body was sent.
func checkSink(t *testing.T, ctx context.Context, c *transport.Client, url string) {
	body := &countingReader{r: io.LimitReader(zeros{}, sinkSize)}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPut, url, body)
	req.ContentLength = sinkSize
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("PUT %s: %v", url, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 != 2 || body.n != sinkSize {
		t.Fatalf("PUT %s: %s after %d of %d body bytes", url, resp.Status, body.n, sinkSize)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestServerCPUAndCancel: the server's CPU time grows under load, and
// cancelling Start's context stops it and removes its directory.
func TestServerCPUAndCancel(t *testing.T) {
	requirePeer(t, "h2o")
	requirePeer(t, "h2load")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := Start(ctx, "h2o", ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	before, err := s.CPU()
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunH2load(ctx, H2loadOptions{URL: s.SmallURL(transport.H2C), Protocol: transport.H2C, Clients: 4, Streams: 10, Requests: 50000})
	if err != nil || res.Succeeded != 50000 {
		t.Fatalf("h2load: %+v, %v", res, err)
	}
	after, err := s.CPU()
	if err != nil {
		t.Fatal(err)
	}
	if used := after.Sub(before); used.Total() <= 0 || used.User < 0 || used.System < 0 {
		t.Fatalf("h2o's CPU over 50000 requests: %+v (before %+v, after %+v)", used, before, after)
	}
	pids, dir := s.PIDs(), s.l.dir
	cancel()
	deadline := time.Now().Add(10 * time.Second)
	for len(s.PIDs()) > 0 || exists(dir) {
		if time.Now().After(deadline) {
			t.Fatalf("after cancel: processes %v (had %v), directory there: %v", s.PIDs(), pids, exists(dir))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestStartErrors: a client peer or an unknown name cannot be started.
func TestStartErrors(t *testing.T) {
	for _, name := range []string{"curl", "apache"} {
		if s, err := Start(context.Background(), name, ServerOptions{}); err == nil {
			s.Stop()
			t.Errorf("Start(%q) succeeded", name)
		}
	}
}

// TestStartRetriesTakenPort: a port taken between its choice and the
// server's bind makes Start pick ports again (each server says so in its
// own words).
func TestStartRetriesTakenPort(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	go func() { // answer probes at once: a closed connection, not a hang
		for {
			c, err := taken.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	defer func() { pickPorts = freePorts }()
	for _, name := range []string{"h2o", "nginx", "caddy", "nghttpd"} {
		t.Run(name, func(t *testing.T) {
			requirePeer(t, name)
			calls := 0
			pickPorts = func(n, udp int) ([]int, error) {
				calls++
				ports, err := freePorts(n, udp)
				if calls == 1 && err == nil {
					ports[0] = taken.Addr().(*net.TCPAddr).Port
				}
				return ports, err
			}
			s, err := Start(context.Background(), name, ServerOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Stop()
			if calls != 2 {
				t.Fatalf("picked ports %d times, want 2", calls)
			}
		})
	}
}

// TestServerPinned starts nginx (a master that forks its workers) bound to
// one CPU: every process of it, workers included, has that CPU alone.
func TestServerPinned(t *testing.T) {
	requirePeer(t, "nginx")
	if runtime.GOOS != "linux" || runtime.NumCPU() < 2 {
		t.Skip("pinning apart needs Linux and two CPUs")
	}
	cpu := runtime.NumCPU() - 1
	s, err := Start(context.Background(), "nginx", ServerOptions{CPUs: []int{cpu}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	var procs []int
	for _, pid := range s.PIDs() {
		procs = append(procs, pid)
		// The workers are the master's children.
		kids, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
		for _, f := range strings.Fields(string(kids)) {
			if k, err := strconv.Atoi(f); err == nil {
				procs = append(procs, k)
			}
		}
	}
	if len(procs) < 2 {
		t.Fatalf("nginx processes %v: want a master and a worker", procs)
	}
	for _, pid := range procs {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("Cpus_allowed_list:\t%d\n", cpu); !strings.Contains(string(b), want) {
			t.Fatalf("nginx process %d not on CPU %d:\n%s", pid, cpu, b)
		}
	}
}
