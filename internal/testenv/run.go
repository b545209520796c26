package testenv

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/httpvs/httpvs/results"
)

// SyncBuffer is a bytes.Buffer safe for a command writing while a test reads.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String is what was written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// ReadResults reads the one results directory under out: its results and
// the directory.
func ReadResults(t *testing.T, out string) (*results.Results, string) {
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

// NeedLink skips the test under -short (the edit loop runs no emulated
// link) and where the system denies network namespaces or TUN devices
// (no root, no /dev/net/tun): it opens a link with open (netem's NewLink
// of a zero Spec) and closes it, skipping on a setup error of type S
// (*netem.SetupError).
func NeedLink[S error, L io.Closer](t *testing.T, open func() (L, error)) {
	t.Helper()
	if testing.Short() {
		t.Skip("an emulated link: not under -short")
	}
	link, err := open()
	var se S
	if errors.As(err, &se) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	link.Close()
}

// NetLeftovers lists what a link leaves if it is not cleaned up: this
// process's threads in another network namespace, its descriptors of
// namespaces and TUN devices, and child processes in another namespace.
func NetLeftovers(t *testing.T) map[string]bool {
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

// CheckNoLeftovers fails if anything NetLeftovers finds was not there
// before, once threads that were ending have had a moment to end.
func CheckNoLeftovers(t *testing.T, before map[string]bool) {
	t.Helper()
	CheckNoLeftoversOf(t, before, NetLeftovers)
}

// CheckNoLeftoversOf is CheckNoLeftovers with list in NetLeftovers' place
// (NetLeftovers less what a test knows to be another's).
func CheckNoLeftoversOf(t *testing.T, before map[string]bool, list func(*testing.T) map[string]bool) {
	t.Helper()
	var left []string
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		left = left[:0]
		for what := range list(t) {
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
