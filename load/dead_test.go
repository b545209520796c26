package load

import (
	"bufio"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/testenv"
	"github.com/httpvs/httpvs/load/loadresult"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
)

// childServerEnv, set to 1, makes this test binary httpvs's payload
// server (TestMain), so that a test can kill a real server with SIGKILL,
// as kill -9 does: its sockets close, and over QUIC nothing more arrives.
const childServerEnv = "HTTPVS_LOAD_TEST_CHILD_SERVER"

// TestMain serves as the child server when started as one. The tests
// marked t.Parallel() mostly wait (on a killed server's silence, refused
// dials' backoff, slow answers, an open loop's schedule), each with a
// server of its own: more of them run at once than go test's default.
func TestMain(m *testing.M) {
	if os.Getenv(childServerEnv) == "1" {
		os.Exit(serveChild())
	}
	testenv.RaiseParallel(testenv.Waiting)
	os.Exit(m.Run())
}

// waits skips, under -short, a test that spends seconds waiting on a
// timer (a killed server's silence, a dial's backoff, a slow answer):
// the full suite (go test ./load, without -short) runs it.
func waits(t *testing.T, on string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("waits on %s: not under -short (go test ./load runs it)", on)
	}
}

// childURLs is the child server's announcement: a base URL per transport
// and its certificate.
type childURLs struct {
	URLs    map[string]string `json:"urls"`
	CertPEM string            `json:"cert_pem"`
}

// serveChild serves until stdin closes or the process is killed.
func serveChild() int {
	srv, err := server.Start(server.Config{Transport: server.Loopback()})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer srv.Close()
	ann := childURLs{URLs: map[string]string{}, CertPEM: string(transport.CertPEM(srv.Transport.Cert()))}
	for _, p := range transport.All {
		ann.URLs[p.String()] = srv.Transport.URL(p)
	}
	line, _ := json.Marshal(ann)
	fmt.Printf("%s\n", line)
	io.Copy(io.Discard, os.Stdin)
	return 0
}

// childServer is a payload server in another process.
type childServer struct {
	cmd  *exec.Cmd
	ann  childURLs
	pool *x509.CertPool
}

// startChildServer starts this test binary as a server; the test's
// cleanup kills it.
func startChildServer(t *testing.T) *childServer {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childServerEnv+"=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe() // held open: the child serves until it closes
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		stdin.Close()
		cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		sc.Scan()
		line <- sc.Text()
		io.Copy(io.Discard, stdout)
	}()
	c := &childServer{cmd: cmd}
	select {
	case l := <-line:
		if err := json.Unmarshal([]byte(l), &c.ann); err != nil {
			t.Fatalf("child server's announcement %q: %v", l, err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the child server did not start within 20 s")
	}
	c.pool = x509.NewCertPool()
	if !c.pool.AppendCertsFromPEM([]byte(c.ann.CertPEM)) {
		t.Fatal("the child server's certificate does not parse")
	}
	return c
}

// killedServerConfig is a 5-second run over p against c, and a Progress
// hook that kills c with SIGKILL at the first report with a success;
// killed returns when that was (zero if it was not).
func killedServerConfig(c *childServer, engine Engine, p transport.Protocol) (cfg Config, killed func() time.Time) {
	var (
		once sync.Once
		mu   sync.Mutex
		at   time.Time
	)
	cfg = Config{URL: c.ann.URLs[p.String()] + "/small", Client: transport.ClientOptions{Protocol: p, RootCAs: c.pool},
		Conns: 2, Streams: 2, Duration: 5 * time.Second, Engine: engine,
		Progress: func(pr Progress) {
			if pr.Done > pr.Errors {
				once.Do(func() {
					c.cmd.Process.Kill()
					mu.Lock()
					at = time.Now()
					mu.Unlock()
				})
			}
		}}
	if p.Version() == 1 {
		cfg.Streams = 1
	}
	return cfg, func() time.Time { mu.Lock(); defer mu.Unlock(); return at }
}

// TestServerKilledMidRun kills a real server (another process) with
// SIGKILL once it has answered, with both engines over every transport:
// the requests it left unanswered are failures of their kind (over TCP the
// kernel resets and then refuses; over QUIC nothing comes back, and the
// requests in flight when the run ends are timeouts, one per stream), the
// rates are over the time it answered, and the result says when it stopped.
func TestServerKilledMidRun(t *testing.T) {
	t.Parallel() // see TestMain
	waits(t, "killed servers' silence")
	for _, engine := range []Engine{Std, Fast} {
		for _, p := range transport.All {
			t.Run(engine.String()+"/"+p.String(), func(t *testing.T) {
				// Each has a server of its own and mostly waits (h3 on
				// QUIC's silence); what it checks is held to when its
				// server was killed, not to a rate.
				t.Parallel()
				c := startChildServer(t)
				cfg, killed := killedServerConfig(c, engine, p)
				res := mustRun(t, cfg)
				at := killed()
				if at.IsZero() {
					t.Fatalf("no success to kill the server after: %d requests, errors %v (%s)", res.Requests, res.Errors, res.FirstError)
				}
				checkKilled(t, res, at)
				if p == transport.H3 {
					// The run ended before QUIC's 5 s idle timeout: every
					// stream's last request was waiting when it did, with no
					// response, unless its response had begun before the
					// kill (those are not counted: judgeCutOffs).
					if res.Errors.Total > int64(res.Concurrency) || res.Errors.Timeout != res.Errors.Total {
						t.Errorf("errors %v, want up to %d timeouts: one per stream", res.Errors, res.Concurrency)
					}
				} else if e := res.Errors; e.Refused+e.Reset == 0 || e.Refused+e.Reset+e.Short+e.Timeout != e.Total {
					// (A request that waited over a second for a connection,
					// with nothing answered, is a timeout: seen with the std
					// engine's h2c on a loaded machine.)
					t.Errorf("errors %v: want refusals or resets, and short bodies or timeouts only", e)
				}
			})
		}
	}
}

// checkKilled checks a run whose server was killed at killed.
func checkKilled(t *testing.T, res loadresult.Result, killed time.Time) {
	t.Helper()
	if res.Succeeded == 0 || res.Errors.Total == 0 || res.Requests != res.Succeeded+res.Errors.Total {
		t.Fatalf("requests %d, succeeded %d, errors %v, stopped %q: want successes, then failures", res.Requests, res.Succeeded, res.Errors, res.Stopped)
	}
	if res.StoppedAnswering <= 0 || res.Seconds != res.StoppedAnswering || res.RanSeconds <= res.Seconds ||
		!strings.Contains(res.Stopped, "stopped answering") {
		t.Fatalf("stopped answering at %v s, seconds %v, ran %v s, stopped %q: want the rates over the time it answered",
			res.StoppedAnswering, res.Seconds, res.RanSeconds, res.Stopped)
	}
	if want := float64(res.Succeeded) / res.Seconds; math.Abs(res.RequestsPerSecond-want) > 1e-6*want {
		t.Errorf("%v req/s, want %d successes / %v s", res.RequestsPerSecond, res.Succeeded, res.Seconds)
	}
	// The last answer came about when the server was killed: not after
	// (but for what was on its way), nor long before (on a loaded machine
	// a server in another process may go unheard for a second or more).
	last := res.Started.Add(time.Duration(res.StoppedAnswering * float64(time.Second)))
	if last.Before(killed.Add(-3*time.Second)) || last.After(killed.Add(time.Second)) {
		t.Errorf("last answer at %v, the server was killed at %v", last, killed)
	}
}

// TestServerKilledMidRunByCount: a run by request count against a server
// killed over HTTP/3 ends when the QUIC idle timeout has failed its
// connections, not at its (far) count: those requests and the ones cut
// off when the run stops are timeouts.
func TestServerKilledMidRunByCount(t *testing.T) {
	t.Parallel() // see TestMain
	waits(t, "QUIC's idle timeout")
	for _, engine := range []Engine{Std, Fast} {
		t.Run(engine.String(), func(t *testing.T) {
			t.Parallel() // each against a server of its own, held to when it was killed
			c := startChildServer(t)
			cfg, killed := killedServerConfig(c, engine, transport.H3)
			cfg.Requests, cfg.Duration = 1e9, 0
			cfg.Client.Config.QUIC.MaxIdleTimeout = 2 * time.Second
			cfg.Client.Config.DialTimeout = 500 * time.Millisecond
			start := time.Now()
			res := mustRun(t, cfg)
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("ran %v", d)
			}
			at := killed()
			if at.IsZero() {
				t.Fatalf("no success to kill the server after: %d requests, errors %v (%s)", res.Requests, res.Errors, res.FirstError)
			}
			checkKilled(t, res, at)
			// Each stream's request failed by the idle timeout, or was cut
			// off when that stopped the run (and counted unless its
			// response had begun).
			if res.Errors.Timeout != res.Errors.Total || res.Errors.Total > int64(res.Concurrency) {
				t.Errorf("errors %v, want up to %d timeouts: one per stream", res.Errors, res.Concurrency)
			}
		})
	}
}

// TestSlowRequestsCutOffAreNotFailures: a healthy server whose every
// answer takes 1.5 s leaves requests in flight when the run ends, after
// 1.2 s of silence (more than StallAfter, less than StallFactor times the
// slowest request); they are neither successes nor failures, and the run
// is not said to have lost its server.
func TestSlowRequestsCutOffAreNotFailures(t *testing.T) {
	t.Parallel() // see TestMain
	waits(t, "1.5 s answers")
	ts, _ := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(1500 * time.Millisecond):
		case <-r.Context().Done():
		}
		w.Write([]byte("ok"))
	}))
	for _, engine := range []Engine{Std, Fast} {
		for _, p := range []transport.Protocol{transport.H1, transport.H2C, transport.H3} {
			t.Run(engine.String()+"/"+p.String(), func(t *testing.T) {
				t.Parallel()
				res := mustRun(t, Config{URL: ts.URL(p) + "/", Client: transport.ClientOptions{Protocol: p, RootCAs: transport.CertPool(ts.Cert())},
					Conns: 2, Streams: 1, Duration: 2700 * time.Millisecond, Engine: engine})
				if res.Succeeded == 0 || res.Errors.Total != 0 || res.Stopped != "" || res.StoppedAnswering != 0 || res.RanSeconds != 0 {
					t.Fatalf("succeeded %d, errors %v (%s), stopped %q at %v s: want successes only", res.Succeeded, res.Errors, res.FirstError, res.Stopped, res.StoppedAnswering)
				}
				if res.Seconds < 2.6 {
					t.Errorf("measured %v s of a 2.7 s run", res.Seconds)
				}
			})
		}
	}
}
