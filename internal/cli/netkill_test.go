package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// runProc is `httpvs run` running as a separate process (this test binary
// acting as httpvs), its stderr on a pseudo-terminal so that it shows its
// progress line as it does to a user.
type runProc struct {
	cmd      *exec.Cmd
	stdout   syncBuffer
	tty      syncBuffer    // stderr, through the terminal
	ttyDone  chan struct{} // closed once the terminal has been read to its end
	exited   chan struct{}
	exitCode int
}

// openPTY returns a pseudo-terminal's master and slave ends.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Skipf("unlock pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Skipf("pseudo-terminal number: %v", err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("open pseudo-terminal: %v", err)
	}
	return m, s
}

// startRunProc starts `httpvs run args...` as a child of the test. The
// kernel kills it if the test dies; the test kills it at the end.
func startRunProc(t *testing.T, args ...string) *runProc {
	t.Helper()
	master, slave := openPTY(t)
	p := &runProc{exited: make(chan struct{}), ttyDone: make(chan struct{})}
	p.cmd = exec.Command(os.Args[0], append([]string{"run"}, args...)...)
	p.cmd.Env = append(os.Environ(), mainEnv+"=1")
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, slave
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	// Pdeathsig is the starting thread's: the kernel kills the run when
	// that thread ends, and Go ends a thread a goroutine left locked (as
	// the link tests running beside this one do in their namespaces).
	// The goroutine that starts and waits for the run holds its thread.
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := p.cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		err := p.cmd.Wait()
		p.exitCode = p.cmd.ProcessState.ExitCode()
		if err != nil && p.exitCode == -1 {
			p.exitCode = -int(p.cmd.ProcessState.Sys().(syscall.WaitStatus).Signal())
		}
		close(p.exited)
	}()
	if err := <-started; err != nil {
		slave.Close()
		master.Close()
		t.Fatal(err)
	}
	slave.Close()
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf) // EIO once the run and its child have closed the terminal
			p.tty.Write(buf[:n])
			if err != nil {
				master.Close()
				close(p.ttyDone)
				return
			}
		}
	}()
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); <-p.exited })
	return p
}

// waitOutput waits up to d for the terminal to show want.
func (p *runProc) waitOutput(t *testing.T, want string, d time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(d); !strings.Contains(p.tty.String(), want); time.Sleep(20 * time.Millisecond) {
		select {
		case <-p.exited:
			t.Fatalf("the run exited (%d) before showing %q: %s", p.exitCode, want, p.tty.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run did not show %q within %v: %q", want, d, p.tty.String())
		}
	}
}

// wait waits up to d for the run to exit and returns its exit code
// (minus the signal's number if a signal ended it), once what it wrote to
// the terminal has been read (a run's last line had not always been when
// its exit was seen), or a second after its exit if something else of it
// holds the terminal.
func (p *runProc) wait(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-p.exited:
		select {
		case <-p.ttyDone:
		case <-time.After(time.Second):
		}
		return p.exitCode
	case <-time.After(d):
		t.Fatalf("the run did not exit within %v", d)
		return 0
	}
}

// linkTrace is what a running `httpvs run --net` holds: its link's two
// namespaces, its TUN descriptors and its child server.
type linkTrace struct {
	namespaces []string // net:[inode]
	tuns       int
	child      int   // the child server's pid
	procs      []int // the run, its children and theirs
}

// traceLink reads /proc for what the run with pid holds.
func traceLink(t *testing.T, pid int) linkTrace {
	t.Helper()
	var lt linkTrace
	fds, _ := filepath.Glob(fmt.Sprintf("/proc/%d/fd/*", pid))
	for _, p := range fds {
		switch target, _ := os.Readlink(p); {
		case strings.HasPrefix(target, "net:"):
			lt.namespaces = append(lt.namespaces, target)
		case target == "/dev/net/tun":
			lt.tuns++
		}
	}
	statuses, _ := filepath.Glob("/proc/[0-9]*/status")
	for _, p := range statuses {
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), fmt.Sprintf("PPid:\t%d\n", pid)) {
			ns, _ := os.Readlink(filepath.Join(filepath.Dir(p), "ns", "net"))
			for _, n := range lt.namespaces {
				if ns == n {
					lt.child, _ = strconv.Atoi(filepath.Base(filepath.Dir(p)))
				}
			}
		}
	}
	lt.procs = descendants(pid)
	if len(lt.namespaces) != 2 || lt.tuns != 2 || lt.child == 0 {
		t.Fatalf("run %d holds namespaces %v, %d TUN descriptors, child server %d: want 2, 2 and one in a namespace", pid, lt.namespaces, lt.tuns, lt.child)
	}
	return lt
}

// descendants returns pid and the processes below it, as /proc has them
// now.
func descendants(pid int) []int {
	parent := map[int]int{}
	statuses, _ := filepath.Glob("/proc/[0-9]*/status")
	for _, p := range statuses {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		_, after, _ := strings.Cut(string(b), "\nPPid:\t")
		ppid, _ := strconv.Atoi(strings.SplitN(after, "\n", 2)[0])
		self, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		parent[self] = ppid
	}
	out := []int{pid}
	for i := 0; i < len(out); i++ {
		for self, ppid := range parent {
			if ppid == out[i] {
				out = append(out, self)
			}
		}
	}
	return out
}

// tunHolders counts the descriptors of /dev/net/tun open in procs.
func tunHolders(procs []int) int {
	n := 0
	for _, pid := range procs {
		fds, _ := filepath.Glob(fmt.Sprintf("/proc/%d/fd/*", pid))
		for _, p := range fds {
			if target, err := os.Readlink(p); err == nil && target == "/dev/net/tun" {
				n++
			}
		}
	}
	return n
}

// namespaceHolders lists what still refers to one of the namespaces: a
// thread of procs inside it, a descriptor of it in procs, or a bind mount
// (as `ip netns add` makes). Only the run's own processes are looked at:
// the kernel gives a freed namespace's inode number to the next one made,
// and tests of other packages, running at the same time, make them.
func namespaceHolders(namespaces []string, procs []int) []string {
	var found, links, fds []string
	for _, pid := range procs {
		l, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/[0-9]*/ns/net", pid))
		f, _ := filepath.Glob(fmt.Sprintf("/proc/%d/fd/*", pid))
		links, fds = append(links, l...), append(fds, f...)
	}
	mounts, _ := os.ReadFile("/proc/self/mountinfo")
	for _, ns := range namespaces {
		for _, p := range append(links, fds...) {
			if l, err := os.Readlink(p); err == nil && l == ns {
				found = append(found, p)
			}
		}
		if strings.Contains(string(mounts), ns) {
			found = append(found, "a mount of "+ns)
		}
	}
	return found
}

// checkLinkGone waits up to 5 s for the link lt traced to be gone: no
// reference to its namespaces (the kernel then deletes them and their TUN
// devices), no TUN descriptor in the run's processes, and the child
// server dead (a zombie waiting for init to reap it is dead).
func checkLinkGone(t *testing.T, lt linkTrace) {
	t.Helper()
	alive := func() bool {
		st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", lt.child))
		return err == nil && !strings.Contains(string(st), ") Z")
	}
	deadline := time.Now().Add(5 * time.Second)
	for (len(namespaceHolders(lt.namespaces, lt.procs)) > 0 || tunHolders(lt.procs) > 0 || alive()) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if left := namespaceHolders(lt.namespaces, lt.procs); len(left) > 0 {
		t.Errorf("the link's namespaces are still held by %v", left)
	}
	if n := tunHolders(lt.procs); n > 0 {
		t.Errorf("%d TUN descriptors open in the run's processes %v", n, lt.procs)
	}
	if alive() {
		t.Errorf("the child server %d outlived the run", lt.child)
	}
	for _, dev := range []string{"hvc0", "hvs0"} {
		if _, err := os.Stat("/sys/class/net/" + dev); err == nil {
			t.Errorf("TUN device %s is in this namespace", dev)
		}
	}
	if ents, _ := os.ReadDir("/run/netns"); len(ents) > 0 {
		t.Logf("named namespaces (not the run's: it names none): %d", len(ents))
	}
}

// TestRunNetKilled SIGKILLs `httpvs run --net` while it measures: nothing
// can run in it then, yet within seconds neither its namespaces nor its
// TUN devices nor its child server are left.
func TestRunNetKilled(t *testing.T) {
	t.Parallel() // a process of its own: its check is of that process
	needLink(t)
	p := startRunProc(t, "--net", "rtt=20ms", "--scenarios", "small-sequential", "--protocols", "h1",
		"--repeat", "1", "--duration", "60s", "--no-files")
	p.waitOutput(t, "small-sequential over h1", 60*time.Second) // calibrated, measuring
	lt := traceLink(t, p.cmd.Process.Pid)
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if code := p.wait(t, 10*time.Second); code != -int(syscall.SIGKILL) {
		t.Errorf("exit %d, want killed by SIGKILL", code)
	}
	checkLinkGone(t, lt)
}

// TestRunNetCtrlC interrupts `httpvs run --net` with SIGINT (Ctrl-C) once
// its first cell is measured: it exits 130, keeps and writes what it
// measured marked partial (the interrupted cell's repetition marked
// interrupted), and leaves nothing of the link behind.
func TestRunNetCtrlC(t *testing.T) {
	t.Parallel() // a process of its own: its check is of that process
	needLink(t)
	out := t.TempDir()
	p := startRunProc(t, "--net", "rtt=20ms", "--scenarios", "small-sequential", "--protocols", "h1,h2c",
		"--repeat", "1", "--duration", "1s", "--out", out)
	// Columns run in a random order: once the second measurement of the
	// round starts, the first column's cell is done.
	p.waitOutput(t, "[2/2] small-sequential over", 90*time.Second)
	lt := traceLink(t, p.cmd.Process.Pid)
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if code := p.wait(t, 30*time.Second); code != 130 {
		t.Errorf("exit %d, want 130 (128 + SIGINT, a shell's interrupted command): %s", code, p.tty.String())
	}
	checkLinkGone(t, lt)
	if !strings.Contains(p.tty.String(), "marked partial") || !strings.Contains(p.stdout.String(), "PARTIAL: interrupted") {
		t.Errorf("the run did not say it was interrupted: stdout %q, terminal %q", p.stdout.String(), p.tty.String())
	}
	res, _ := readResults(t, out)
	if !res.Partial || !strings.HasPrefix(res.PartialReason, "interrupted") || res.Settings.Net == nil || res.Settings.Net.UpCounters.Packets == 0 {
		t.Fatalf("results: partial %v (%q), net %+v: want partial, interrupted, the link's counters", res.Partial, res.PartialReason, res.Settings.Net)
	}
	var whole, cut int
	for _, p := range []string{"h1", "h2c"} {
		c := res.Cell("small-sequential", p)
		switch {
		case c == nil:
		case len(c.Repetitions) == 1 && !c.Repetitions[0].Interrupted && c.Repetitions[0].Requests > 0 && c.Repetitions[0].Errors.Total == 0:
			whole++
		case len(c.Repetitions) == 1 && c.Repetitions[0].Interrupted:
			cut++
		default:
			t.Errorf("%s's cell %+v: want one whole repetition, or one marked interrupted", p, c)
		}
	}
	if whole != 1 || cut > 1 {
		t.Errorf("%d whole and %d interrupted cells: want the first column's whole, the second's (if kept) interrupted", whole, cut)
	}
}
