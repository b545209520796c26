//go:build linux

package cli

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/httpvs/httpvs/results"
)

// nobody is the unprivileged user the test runs httpvs as.
const nobody = "65534"

// TestRunNetUnprivileged runs `httpvs run --net` as an unprivileged user:
// httpvs runs itself again in a user namespace of its own and the link
// carries every request (each takes its 10 ms round trip). The TUN device
// must be open to the user, as most distributions ship it (0666); where it
// is root-only (0600, as on this project's machines) the test gives the
// user a 0666 node of the same device in a mount namespace of its own,
// and checks that without it the run fails in one line naming the device.
// Each run is a process tree of its own (the run as the user, httpvs in
// its user namespace, the child server), all running bin: once the run
// has exited, no process may still run it. (This process's threads and
// descriptors are no check here: the link is never this process's.)
func TestRunNetUnprivileged(t *testing.T) {
	t.Parallel() // a process tree of its own, checked by what runs bin
	needLink(t)
	needTools(t, "unshare", "setpriv", "sh")
	bin, dev := userBinary(t)
	args := []string{"run", "--net", "rtt=10ms", "--scenarios", "small-sequential", "--protocols", "h1,h2c",
		"--repeat", "2", "--duration", "200ms", "--no-files", "--json"}
	asNobody := []string{"setpriv", "--reuid=" + nobody, "--regid=" + nobody, "--clear-groups", bin}
	script := `mount --bind "$1" /dev/net/tun && shift && exec "$@"`
	cmd := exec.Command("unshare", append([]string{"--mount", "--propagation", "private", "sh", "-c", script, "sh", dev}, append(asNobody, args...)...)...)
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	var res results.Results
	dec := json.NewDecoder(strings.NewReader(stdout.String()))
	if err := dec.Decode(&res); err != nil {
		t.Fatalf("results: %v\n%s", err, stdout.String())
	}
	if res.Settings.Net == nil || len(res.Cells) != 2 {
		t.Fatalf("net %+v, %d cells: want the link and 2 cells", res.Settings.Net, len(res.Cells))
	}
	checkCrossedLink(t, res.Cells)
	if err := dec.Decode(new(results.Results)); err != io.EOF {
		t.Errorf("after the run: %v, want the end", err)
	}
	checkNoneRuns(t, bin)
	checkRefusedWithoutDevice(t, bin, asNobody, args)
}

// needTools skips the test unless every one of tools is on the PATH.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s (util-linux) is needed: %v", tool, err)
		}
	}
}

// userBinary puts the test binary, which acts as httpvs, where the
// unprivileged user can run it, beside a 0666 node of the TUN device, and
// returns both paths.
func userBinary(t *testing.T) (bin, dev string) {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin = filepath.Join(dir, "httpvs")
	copyFile(t, os.Args[0], bin, 0o755)
	dev = filepath.Join(dir, "tun")
	if err := unix.Mknod(dev, unix.S_IFCHR|0o666, int(unix.Mkdev(10, 200))); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dev, 0o666); err != nil {
		t.Fatal(err)
	}
	return bin, dev
}

// checkCrossedLink checks that every cell got its two repetitions and
// every request crossed the 10 ms link without errors.
func checkCrossedLink(t *testing.T, cells []results.Cell) {
	t.Helper()
	for _, c := range cells {
		if len(c.Repetitions) != 2 {
			t.Errorf("%s: %d repetitions, want 2", c.Protocol, len(c.Repetitions))
		}
		for _, r := range c.Repetitions {
			if r.Errors.Total != 0 || r.Latency.Count == 0 || r.Latency.Min < 0.010*0.99 {
				t.Errorf("%s: %d errors, %d requests, fastest %.4fs: want each to cross the 10 ms link", c.Protocol, r.Errors.Total, r.Latency.Count, r.Latency.Min)
			}
		}
	}
}

// checkRefusedWithoutDevice checks, where the TUN device is root-only,
// that the run as the user without its own node of it fails in one line
// naming the device and leaves nothing running.
func checkRefusedWithoutDevice(t *testing.T, bin string, asNobody, args []string) {
	t.Helper()
	fi, err := os.Stat("/dev/net/tun")
	if err != nil || fi.Mode().Perm()&0o006 == 0o006 {
		return // the device is open to all here: nothing to refuse
	}
	cmd := exec.Command("setpriv", append(asNobody[1:], args...)...)
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	out, err := cmd.CombinedOutput()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if code := cmd.ProcessState.ExitCode(); code != 1 || len(lines) != 1 || !strings.Contains(lines[0], "/dev/net/tun") {
		t.Errorf("without access to the device: exit %d (%v), output\n%s\nwant exit 1 and one line naming /dev/net/tun", code, err, out)
	}
	checkNoneRuns(t, bin)
}

// checkNoneRuns fails if, 5 s after a run of bin exited, a process still
// runs bin: what the run started outlived it. A link's namespaces live as
// long as a process in them or a descriptor or mount of them; the
// unprivileged run can mount nothing outside namespaces of its own, so
// with none of its processes left, none of its namespaces is.
func checkNoneRuns(t *testing.T, bin string) {
	t.Helper()
	var left []string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		left = left[:0]
		exes, _ := filepath.Glob("/proc/[0-9]*/exe")
		for _, p := range exes {
			// A process's exe is its program's path, " (deleted)" added
			// once the file is gone.
			if target, err := os.Readlink(p); err == nil && strings.TrimSuffix(target, " (deleted)") == bin {
				cmdline, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "cmdline"))
				left = append(left, filepath.Dir(p)+" ("+strings.TrimSpace(strings.ReplaceAll(string(cmdline), "\x00", " "))+")")
			}
		}
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, p := range left {
		t.Errorf("still running %s after the run: %s", bin, p)
	}
}

// copyFile copies src to dst with mode perm.
func copyFile(t *testing.T, src, dst string, perm os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, perm); err != nil {
		t.Fatal(err)
	}
}
