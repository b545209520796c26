package server

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/transport"
)

// openFDs counts this process's open file descriptors (Linux).
func openFDs(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("needs /proc/self/fd")
	}
	return len(entries)
}

// settle waits until f() is at most want, for up to 10 s, and returns the
// last value seen.
func settle(want int, f func() int) int {
	got := f()
	for deadline := time.Now().Add(10 * time.Second); got > want && time.Now().Before(deadline); got = f() {
		time.Sleep(50 * time.Millisecond)
	}
	return got
}

// clientEnv makes the test binary a client that TestClientKilledMidTransfer
// kills: "PROTOCOL METHOD URL".
const clientEnv = "HTTPVS_TEST_KILLED_CLIENT"

func TestMain(m *testing.M) {
	if spec := os.Getenv(clientEnv); spec != "" {
		os.Exit(killedClient(strings.Fields(spec)))
	}
	if os.Getenv(serveEnv) != "" {
		os.Exit(serveChild())
	}
	os.Exit(m.Run())
}

// killedClient downloads or uploads without end, printing "moving" once
// bytes flow, until it is killed.
func killedClient(args []string) int {
	p, err := transport.Parse(args[0])
	if err != nil {
		return 2
	}
	c, err := transport.NewClient(transport.ClientOptions{Protocol: p, Insecure: true})
	if err != nil {
		return 2
	}
	var body io.Reader
	if args[1] == http.MethodPut {
		body = endless{}
	}
	req, _ := http.NewRequest(args[1], args[2], body)
	if body != nil {
		fmt.Println("moving")
	}
	resp, err := c.Do(req)
	if err != nil {
		return 1
	}
	io.CopyN(io.Discard, resp.Body, 1<<20)
	fmt.Println("moving")
	io.Copy(io.Discard, resp.Body)
	return 0
}

type endless struct{}

func (endless) Read(p []byte) (int, error) { return len(p), nil }

// TestClientKilledMidTransfer SIGKILLs client processes in the middle of
// big downloads and uploads over every transport. The server keeps
// serving, and its goroutines and descriptors return to where they were
// (h3 after its idle timeout, which the kernel cannot shortcut for UDP:
// set short here).
func TestClientKilledMidTransfer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts client processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	opts := Loopback()
	opts.IdleTimeout = 2 * time.Second
	opts.Config = config.Server{QUIC: config.QUIC{MaxIdleTimeout: 2 * time.Second}}
	srv, err := Start(Config{Transport: opts})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts, payload := srv.Transport, srv.Server
	c, err := transport.NewClient(transport.ClientOptions{Protocol: transport.H1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	small := func() {
		t.Helper()
		resp, err := c.HTTP().Get(ts.URL(transport.H1) + "/small")
		if err != nil {
			t.Fatalf("server stopped serving: %v", err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	small()
	runtime.GC()
	baseG, baseFD := runtime.NumGoroutine(), openFDs(t)

	for _, p := range transport.All {
		for _, method := range []string{http.MethodGet, http.MethodPut} {
			url := ts.URL(p) + "/bytes/1t"
			if method == http.MethodPut {
				url = ts.URL(p) + "/sink"
			}
			cmd := exec.Command(exe)
			cmd.Env = append(os.Environ(), clientEnv+"="+p.String()+" "+method+" "+url)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, _ := bufio.NewReader(out).ReadString('\n')
			time.Sleep(100 * time.Millisecond) // bytes flowing for a while
			cmd.Process.Kill()
			cmd.Wait()
			if line != "moving\n" {
				t.Fatalf("%s %s: client said %q before it was killed", p, method, line)
			}
			small()
		}
	}
	if g := settle(baseG+2, runtime.NumGoroutine); g > baseG+2 {
		buf := make([]byte, 1<<20)
		t.Errorf("goroutines %d, baseline %d:\n%s", g, baseG, buf[:runtime.Stack(buf, true)])
	}
	if fd := settle(baseFD, func() int { return openFDs(t) }); fd > baseFD {
		t.Errorf("open descriptors %d, baseline %d", fd, baseFD)
	}
	var aborted int64
	for _, pc := range payload.Stats().Protocols {
		aborted += pc.Aborted
	}
	if aborted < 5 {
		t.Errorf("%d bodies counted as aborted, want at least the 5 killed downloads", aborted)
	}
}
