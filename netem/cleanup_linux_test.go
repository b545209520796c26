package netem

import (
	"bufio"
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

	"github.com/httpvs/httpvs/internal/testenv"
	"golang.org/x/sys/unix"
)

// nsLink is how /proc shows a reference to the network namespace whose
// descriptor is fd: "net:[inode]".
func nsLink(t *testing.T, fd int) string {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("net:[%d]", st.Ino)
}

// holders lists what in /proc still refers to the namespace ns: a thread
// inside it or a descriptor of it, in any process.
func holders(ns string) []string {
	var found []string
	links, _ := filepath.Glob("/proc/[0-9]*/task/[0-9]*/ns/net")
	fds, _ := filepath.Glob("/proc/[0-9]*/fd/*")
	for _, p := range append(links, fds...) {
		if l, err := os.Readlink(p); err == nil && l == ns {
			found = append(found, p)
		}
	}
	return found
}

// waitNoHolders polls until nothing refers to the namespaces, for up to d.
func waitNoHolders(t *testing.T, d time.Duration, ns ...string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		var left []string
		for _, n := range ns {
			left = append(left, holders(n)...)
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v the namespaces are still held by %v", d, left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// linkMakers are the ways the cleanup tests make a link: each backend,
// the veth one with a pfifo standing in for netem where the kernel has
// no sch_netem (the namespaces, the pair and the tc children are the same).
var linkMakers = map[string]func() (*Link, error){
	"tun":  func() (*Link, error) { return NewLink(Spec{Backend: BackendTUN}) },
	"veth": func() (*Link, error) { return newNetemLink(Spec{}, pfifoQdisc) },
}

func TestLinkCloseLeavesNothing(t *testing.T) {
	for name, make := range linkMakers {
		t.Run(name, func(t *testing.T) { testCloseLeavesNothing(t, make) })
	}
}

func testCloseLeavesNothing(t *testing.T, makeLink func() (*Link, error)) {
	testenv.SkipWithoutPrivilege(t)
	// The runtime's poller keeps two descriptors from its first use on:
	// start it before counting.
	if r, w, err := os.Pipe(); err == nil {
		r.Close()
		w.Close()
	}
	fds0, g0 := countFDs(t), runtime.NumGoroutine()
	l, err := makeLink()
	testenv.SkipIfDenied[*SetupError](t, err)
	if err != nil {
		t.Fatal(err)
	}
	l.stats() // the veth link's counters run tc inside each namespace
	ns := []string{nsLink(t, l.client.fd), nsLink(t, l.server.fd)}
	sleeper := exec.Command("sleep", "60")
	sleeper.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := l.Server().Start(sleeper); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.Readlink(fmt.Sprintf("/proc/%d/ns/net", sleeper.Process.Pid)); got != ns[1] {
		t.Errorf("the child started in the server namespace is in %s, want %s", got, ns[1])
	}
	if err := dialOnce(testenv.Context(t, 10*time.Second), l); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	// Close ends the thread the child was started from: Pdeathsig kills it.
	if err := sleeper.Wait(); err == nil {
		t.Error("the child in the server namespace outlived the link")
	}
	waitNoHolders(t, 5*time.Second, ns...)
	deadline := time.Now().Add(5 * time.Second)
	for (countFDs(t) > fds0 || runtime.NumGoroutine() > g0) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if fds, g := countFDs(t), runtime.NumGoroutine(); fds > fds0 || g > g0 {
		t.Errorf("after Close: %d descriptors (before: %d), %d goroutines (before: %d)", fds, fds0, g, g0)
	}
}

func countFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// The helper process for TestLinkParentKilled: it makes a link, starts a
// child in the server namespace, prints the namespaces and the child's
// pid, and waits to be killed.
func TestHelperLinkHolder(t *testing.T) {
	if os.Getenv("NETEM_HELPER") != "1" {
		t.Skip("the helper of TestLinkParentKilled")
	}
	makeLink := linkMakers[os.Getenv("NETEM_HELPER_LINK")]
	if makeLink == nil {
		fmt.Println("error no link maker", os.Getenv("NETEM_HELPER_LINK"))
		return
	}
	l, err := makeLink()
	if err != nil {
		fmt.Println("error", err)
		return
	}
	sleeper := exec.Command("sleep", "60")
	sleeper.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := l.Server().Start(sleeper); err != nil {
		fmt.Println("error", err)
		return
	}
	fmt.Println("ready", nsLink(t, l.client.fd), nsLink(t, l.server.fd), sleeper.Process.Pid)
	time.Sleep(30 * time.Second) // bounded: the test kills it long before
}

func TestLinkParentKilled(t *testing.T) {
	for name := range linkMakers {
		t.Run(name, func(t *testing.T) { testParentKilled(t, name) })
	}
}

func testParentKilled(t *testing.T, link string) {
	testenv.SkipWithoutPrivilege(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperLinkHolder$", "-test.v")
	cmd.Env = append(os.Environ(), "NETEM_HELPER=1", "NETEM_HELPER_LINK="+link)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var fields []string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) > 0 && (f[0] == "ready" || f[0] == "error") {
			fields = f
			break
		}
	}
	if len(fields) != 4 || fields[0] != "ready" {
		t.Fatalf("helper said %q", fields)
	}
	childPid, _ := strconv.Atoi(fields[3])
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	waitNoHolders(t, 5*time.Second, fields[1], fields[2])
	if err := syscall.Kill(childPid, 0); err == nil {
		// It may linger as a zombie of init for a moment; its namespace is
		// already gone (checked above), so only a live process would matter.
		if st, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", childPid)); !strings.Contains(string(st), ") Z") {
			t.Errorf("the helper's child %d outlived a SIGKILL of the helper", childPid)
		}
	}
}
