package peers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// DefaultClientTimeout bounds a client run when its options' Timeout is
// zero: 2 minutes.
const DefaultClientTimeout = 2 * time.Minute

// ProcessTime is what a client run cost its process, from start to exit.
type ProcessTime struct {
	Wall   time.Duration // elapsed
	User   time.Duration // user-mode CPU, of the process and its waited-for children
	System time.Duration // kernel-mode CPU, likewise
}

// toolRun is the outcome of one client process.
type toolRun struct {
	stdout, stderr []byte
	exit           int // exit status; -1 if killed
	time           ProcessTime
}

// runTool runs argv (argv[0] a catalog name) in a process group of its
// own, bounded by timeout and ctx. A run that did not exit on its own is
// an error; a non-zero exit is not (each caller reads what the tool said).
func runTool(ctx context.Context, name string, timeout time.Duration, args ...string) (toolRun, error) {
	return runToolUntil(ctx, name, timeout, 0, args...)
}

// runToolUntil is runTool that, if interruptAfter is positive, sends the
// tool SIGINT that long after it started (for tools that stop early and
// still report when interrupted, as wrk does).
func runToolUntil(ctx context.Context, name string, timeout, interruptAfter time.Duration, args ...string) (toolRun, error) {
	peer, err := Lookup(name)
	if err != nil {
		return toolRun{}, err
	}
	bin, err := peer.Path()
	if err != nil {
		return toolRun{}, err
	}
	if timeout <= 0 {
		timeout = DefaultClientTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	isolate(cmd)
	cmd.Cancel = func() error { killGroup(cmd.Process.Pid); return nil }
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	// Started and waited for on one thread, held: the kernel kills the
	// tool (Pdeathsig) when the thread that started it ends.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	err = cmd.Start()
	if err == nil {
		if interruptAfter > 0 {
			t := time.AfterFunc(interruptAfter, func() { _ = cmd.Process.Signal(os.Interrupt) })
			defer t.Stop()
		}
		err = cmd.Wait()
	}
	r := toolRun{stdout: stdout.Bytes(), stderr: stderr.Bytes(), exit: -1}
	r.time.Wall = time.Since(start)
	if ps := cmd.ProcessState; ps != nil {
		r.exit = ps.ExitCode()
		r.time.User, r.time.System = ps.UserTime(), ps.SystemTime()
	}
	if ctx.Err() != nil {
		return r, fmt.Errorf("%s: stopped after %v: %w", name, r.time.Wall.Round(time.Millisecond), ctx.Err())
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return r, fmt.Errorf("%s: %w", name, err)
	}
	return r, nil
}

// lastLines returns the last n lines of b, trimmed, for error messages.
func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
