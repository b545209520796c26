package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/httpvs/httpvs/internal/childserver"
)

func TestChildServerIsReaped(t *testing.T) {
	c, err := childserver.Start(context.Background(), "", nil, childserver.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	pid := c.Ready.PID
	if !alive(pid) {
		t.Fatalf("child %d not running after start", pid)
	}
	c.Stop()
	if alive(pid) {
		t.Fatalf("child %d still running after stop", pid)
	}
}

// TestChildDiesWithParent kills a parent `httpvs run` with SIGKILL (no
// chance to clean up) and checks that its child server goes too.
func TestChildDiesWithParent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finds the child through /proc")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	parent := exec.Command(exe, "run", "--protocols", "h1", "--scenarios", "small-sequential", "--duration", "1m", "--repeat", "1", "--no-files")
	parent.Env = append(os.Environ(), mainEnv+"=1")
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	defer parent.Process.Kill()
	var child int
	for deadline := time.Now().Add(15 * time.Second); child == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		child = childOf(parent.Process.Pid)
	}
	if child == 0 {
		t.Fatal("parent started no child server")
	}
	parent.Process.Kill()
	parent.Wait()
	for deadline := time.Now().Add(10 * time.Second); alive(child); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("child %d outlived its killed parent", child)
		}
	}
}

// childOf returns a child process of pid, or 0.
func childOf(pid int) int {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		if fields := strings.Fields(string(b)); len(fields) > 0 {
			n, _ := strconv.Atoi(fields[0])
			return n
		}
	}
	return 0
}

// alive reports whether pid is a running process (not gone, not a zombie).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return runtime.GOOS != "linux"
	}
	// The state follows the parenthesised command name.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z' && s[i+2] != 'X'
	}
	return true
}
