package matrix

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/childproc"
	"github.com/httpvs/httpvs/transport"
)

// plainServerRole makes the test binary a child serving GET /big and
// GET /small over h1 and h2c on loopback, and no counters (GET /stats is
// 404): a server not httpvs's. It prints its address and serves until
// its stdin closes.
const plainServerRole = "MATRIX_TEST_PLAIN_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(plainServerRole) == "1" {
		os.Exit(servePlain())
	}
	os.Exit(m.Run())
}

func servePlain() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	body := make([]byte, bigBody)
	mux := http.NewServeMux()
	mux.HandleFunc("/big", func(w http.ResponseWriter, _ *http.Request) { w.Write(body) })
	mux.HandleFunc("/small", func(w http.ResponseWriter, _ *http.Request) { w.Write(body[:100]) })
	srv := &http.Server{Handler: mux, Protocols: new(http.Protocols)}
	srv.Protocols.SetHTTP1(true)
	srv.Protocols.SetUnencryptedHTTP2(true)
	go srv.Serve(ln)
	fmt.Println(ln.Addr())
	bufio.NewScanner(os.Stdin).Scan() // until stdin closes
	srv.Close()
	return 0
}

// plainChild starts the child server and returns its base URL and PID.
func plainChild(t *testing.T) (base string, pid int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), plainServerRole+"=1")
	p, err := childproc.Start(cmd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Stop(time.Second) })
	addr, err := p.Next(context.Background(), 20*time.Second)
	if err != nil {
		t.Fatalf("the child server's address: %v (%s)", err, p.Stderr(""))
	}
	return "http://" + addr, p.PID()
}

// TestServerCPUFromProc: against a loopback target in another process
// that serves no counters, every repetition has the server's CPU, cores
// and CPU per unit, read from /proc for the child, and no counters with
// the reason; the run names the process once.
func TestServerCPUFromProc(t *testing.T) {
	if _, err := os.Stat("/proc/net/tcp"); err != nil {
		t.Skip("no /proc/net/tcp:", err)
	}
	o := bigAndSmall(t)
	o.Scenarios = []Scenario{o.Scenarios[0], o.Scenarios[2]} // GET /big, a transfer; GET /small, a load
	base, pid := plainChild(t)
	o.Target = Target{Plain: base}
	res, err := run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	comm := filepath.Base(os.Args[0])
	comm = comm[:min(len(comm), 15)] // the kernel's TASK_COMM_LEN
	if want := fmt.Sprintf("server CPU read from /proc for %s (pid %d)", comm, pid); res.Settings.ServerCPU != want {
		t.Errorf("settings say %q, want %q", res.Settings.ServerCPU, want)
	}
	if len(res.Cells) != 4 {
		t.Fatalf("%d cells, want 4", len(res.Cells))
	}
	var cpu float64
	for _, c := range res.Cells {
		if c.Skipped != "" || len(c.Repetitions) != 1 {
			t.Fatalf("%s/%s: skipped %q, %d repetitions", c.Scenario, c.Protocol, c.Skipped, len(c.Repetitions))
		}
		r := c.Repetitions[0]
		if r.ServerCPUSeconds == nil || r.ServerCores == nil || r.ServerCPUPerUnit == nil {
			t.Fatalf("%s/%s: server CPU %v, cores %v, per unit %v: %s", c.Scenario, c.Protocol, r.ServerCPUSeconds, r.ServerCores, r.ServerCPUPerUnit, r.ServerNote)
		}
		if r.Server != nil || !strings.Contains(r.ServerNote, "/stats: 404 Not Found") {
			t.Errorf("%s/%s: counters %v, note %q", c.Scenario, c.Protocol, r.Server, r.ServerNote)
		}
		cpu += *r.ServerCPUSeconds
	}
	if cpu <= 0 {
		t.Errorf("the child served %d cells' responses in %.3f s of CPU", len(res.Cells), cpu)
	}
}

// TestServerCPURefused: a target in this very process serves no counters
// and its CPU is the client's too: the server's figures stay unknown,
// and the note and the run say why.
func TestServerCPURefused(t *testing.T) {
	if _, err := os.Stat("/proc/net/tcp"); err != nil {
		t.Skip("no /proc/net/tcp:", err)
	}
	o := bigAndSmall(t)
	o.Protocols = []transport.Protocol{transport.H1}
	o.Scenarios = o.Scenarios[2:] // GET /small
	o.NoServerStats = true
	res, err := run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(o.Target.Plain, "http://"))
	why := fmt.Sprintf("server CPU unknown: TCP port %s is this process's own: its CPU is the client's too", port)
	if res.Settings.ServerCPU != why {
		t.Errorf("settings say %q, want %q", res.Settings.ServerCPU, why)
	}
	for _, c := range res.Cells {
		for _, r := range c.Repetitions {
			if r.ServerCPUSeconds != nil || r.ServerNote != "server counters not read (turned off); "+why {
				t.Errorf("%s/%s: server CPU %v, note %q", c.Scenario, c.Protocol, r.ServerCPUSeconds, r.ServerNote)
			}
		}
	}
}
