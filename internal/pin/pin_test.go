package pin

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int
	}{{"1", []int{1}}, {"0,2", []int{0, 2}}, {"2-4", []int{2, 3, 4}}, {"1,1,0-1", []int{1, 0}}} {
		got, err := Parse(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("Parse(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		if tc.in == "0,2" && Format(got) != "0,2" {
			t.Errorf("Format(%v) = %q", got, Format(got))
		}
	}
	for _, bad := range []string{"", "a", "-1", "3-1", "1,,2", "99999"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestSplit(t *testing.T) {
	c, s, ok := Split([]int{0, 1})
	if !ok || !slices.Equal(c, []int{0}) || !slices.Equal(s, []int{1}) {
		t.Fatalf("Split(0,1) = %v, %v, %v", c, s, ok)
	}
	c, s, ok = Split([]int{0, 1, 2, 3, 4})
	if !ok || !slices.Equal(c, []int{0, 1}) || !slices.Equal(s, []int{2, 3, 4}) {
		t.Fatalf("Split(0-4) = %v, %v, %v", c, s, ok)
	}
	if _, _, ok := Split([]int{3}); ok {
		t.Fatal("one CPU split")
	}
}

// TestSelfAndProcess pins this test process to its last CPU and a child
// process to its first, reads both masks back from the kernel, and
// restores this one's.
func TestSelfAndProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("affinity is Linux's")
	}
	before, err := Available()
	if err != nil {
		t.Fatal(err)
	}
	procs := runtime.GOMAXPROCS(0)
	last := before[len(before)-1:]
	restore, err := Self(last)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Available()
	if err != nil || !slices.Equal(got, last) || runtime.GOMAXPROCS(0) != 1 {
		restore()
		t.Fatalf("pinned to %v: mask %v (%v), GOMAXPROCS %d", last, got, err, runtime.GOMAXPROCS(0))
	}
	// Every thread, not only the one that asked.
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, task := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + task.Name() + "/status")
		if err == nil && !strings.Contains(string(b), "Cpus_allowed_list:\t"+Format(last)+"\n") {
			restore()
			t.Fatalf("thread %s not pinned:\n%s", task.Name(), b)
		}
	}
	restore()
	if got, _ := Available(); !slices.Equal(got, before) || runtime.GOMAXPROCS(0) != procs {
		t.Fatalf("restored mask %v GOMAXPROCS %d, want %v and %d", got, runtime.GOMAXPROCS(0), before, procs)
	}

	cmd := exec.Command("sleep", "5")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep to pin:", err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	if err := Process(cmd.Process.Pid, before[:1]); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("/proc/" + itoa(cmd.Process.Pid) + "/status")
	if err != nil || !strings.Contains(string(b), "Cpus_allowed_list:\t"+Format(before[:1])+"\n") {
		t.Fatalf("child not pinned to %v (%v):\n%s", before[:1], err, b)
	}
	if err := Process(cmd.Process.Pid, nil); err == nil {
		t.Fatal("no CPUs accepted")
	}
}

func itoa(n int) string { return Format([]int{n}) }

// TestStart starts a process bound to one CPU: its mask is the CPU's from
// the start, and this thread's mask is as it was.
func TestStart(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("affinity is Linux's")
	}
	before, err := Available()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("grep", "Cpus_allowed_list", "/proc/self/status")
	var out strings.Builder
	cmd.Stdout = &out
	if err := Start(cmd, before[len(before)-1:]); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if want := "Cpus_allowed_list:\t" + Format(before[len(before)-1:]) + "\n"; out.String() != want {
		t.Fatalf("child's mask %q, want %q", out.String(), want)
	}
	if after, _ := Available(); !slices.Equal(after, before) {
		t.Fatalf("this process's mask %v after, %v before", after, before)
	}
}

// TestForeign sees the work of another process: a busy child's CPU is
// foreign to this one, and counted as such.
func TestForeign(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/stat is Linux's")
	}
	quiet, err := Foreign(context.Background(), 50*time.Millisecond)
	if err != nil || quiet < 0 {
		t.Fatalf("Foreign: %v, %v", quiet, err)
	}
	// A shell spinning for 2 s (bounded) beside the measurement.
	cmd := exec.Command("sh", "-c", `end=$(($(date +%s) + 2)); while [ "$(date +%s)" -lt "$end" ]; do :; done`)
	if err := cmd.Start(); err != nil {
		t.Skip("no sh:", err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	busy, err := Foreign(context.Background(), 500*time.Millisecond)
	if err != nil || busy < 0.3 {
		t.Fatalf("with a spinning shell beside it: %.2f cores foreign (%v), want at least 0.3", busy, err)
	}
}
