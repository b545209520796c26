// Package linktest holds the cli tests that run httpvs across an emulated
// link and hold it to the link's physics: rates at the link's bound, round
// trips per handshake, losses as set. They are a package of their own so
// that `go test ./...` runs them beside package cli's other tests, not
// after them: each test here runs alone in this package (none is
// parallel), as a link's figures ask, and the go tool already runs them
// beside other packages' tests, which they allow for (a machine too busy
// for its emulator is reported as such).
package linktest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/internal/cli"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/results"
)

// TestMain runs cli.Main in a child when asked: a run across a link starts
// its server as this binary, with experiment.ChildEnv set.
func TestMain(m *testing.M) {
	if os.Getenv(experiment.ChildEnv) == "1" {
		ctx, stop := cli.SignalContext() // as cmd/httpvs does
		code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// syncBuffer is a bytes.Buffer safe for a command writing while a test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func runMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut syncBuffer
	code = cli.Main(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// readResults reads the one results directory under out.
func readResults(t *testing.T, out string) (*results.Results, string) {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(out, "*", "results.json"))
	if err != nil || len(dirs) != 1 {
		t.Fatalf("want one results.json under %s, got %v (%v)", out, dirs, err)
	}
	f, err := os.Open(dirs[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := results.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	return res, filepath.Dir(dirs[0])
}

// needLink skips the test where the system denies network namespaces or
// TUN devices (no root).
func needLink(t *testing.T) {
	t.Helper()
	link, err := netem.NewLink(netem.Spec{})
	var se *netem.SetupError
	if errors.As(err, &se) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	link.Close()
}

// rttFloor is the least a 40 ms round trip can take: the ferry may write
// a packet up to 50 us before its due time, each way.
const rttFloor = 0.040 - 2*50e-6

// netLeftovers lists what a link leaves if it is not cleaned up: this
// process's threads in another network namespace, its descriptors of
// namespaces and TUN devices, and child processes in another namespace.
func netLeftovers(t *testing.T) map[string]bool {
	t.Helper()
	own, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		t.Skip(err)
	}
	found := map[string]bool{}
	tasks, _ := filepath.Glob("/proc/self/task/*/ns/net")
	for _, p := range tasks {
		if ns, err := os.Readlink(p); err == nil && ns != own {
			found["thread in "+ns] = true
		}
	}
	fds, _ := filepath.Glob("/proc/self/fd/*")
	for _, p := range fds {
		if target, err := os.Readlink(p); err == nil && (strings.HasPrefix(target, "net:") || target == "/dev/net/tun") {
			found["descriptor of "+target] = true
		}
	}
	statuses, _ := filepath.Glob("/proc/[0-9]*/status")
	ppid := "PPid:\t" + strconv.Itoa(os.Getpid()) + "\n"
	for _, p := range statuses {
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), ppid) {
			continue
		}
		if ns, err := os.Readlink(filepath.Join(filepath.Dir(p), "ns", "net")); err == nil && ns != own {
			found["child "+filepath.Dir(p)+" in "+ns] = true
		}
	}
	return found
}

// checkNoLeftovers fails if anything netLeftovers finds was not there
// before, once threads that were ending have had a moment to end.
func checkNoLeftovers(t *testing.T, before map[string]bool) {
	t.Helper()
	var left []string
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		left = left[:0]
		for what := range netLeftovers(t) {
			if !before[what] {
				left = append(left, what)
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, what := range left {
		t.Errorf("left behind: %s", what)
	}
}
