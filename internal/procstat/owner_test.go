package procstat

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// listenerRole makes the test binary a child holding a TCP listener and
// a UDP socket on loopback: it prints their ports, then burns CPU for
// each line "burn" on stdin and answers "burnt".
const listenerRole = "PROCSTAT_TEST_LISTENER"

func TestMain(m *testing.M) {
	if os.Getenv(listenerRole) == "1" {
		os.Exit(holdSockets())
	}
	os.Exit(m.Run())
}

func holdSockets() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer ln.Close()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer pc.Close()
	fmt.Println(ln.Addr().(*net.TCPAddr).Port, pc.LocalAddr().(*net.UDPAddr).Port)
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		if sc.Text() == "burn" {
			burn(300 * time.Millisecond)
			fmt.Println("burnt")
		}
	}
	return 0
}

// burn spins on the CPU until it has used d of it.
func burn(d time.Duration) {
	start := Sample().CPUSeconds()
	x := 0
	for Sample().CPUSeconds()-start < d.Seconds() {
		for i := range 100000 {
			x ^= i * i
		}
	}
	runtime.KeepAlive(x)
}

// holder is the child: its stdin and stdout.
type holder struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *os.File
	rd  *bufio.Reader
}

// startHolder starts the child and returns it with its TCP and UDP ports.
// It reads the child's lines itself, in the test's goroutine: no reader
// outlives the test (TestGoroutinePeak counts goroutines).
func startHolder(t *testing.T) (h *holder, tcp, udp uint16) {
	t.Helper()
	if why := procSupported(); why != "" {
		t.Skip(why)
	}
	h = &holder{cmd: exec.Command(os.Args[0], "-test.run=^$")}
	h.cmd.Env = append(os.Environ(), listenerRole+"=1")
	h.cmd.Stderr = os.Stderr
	var err error
	if h.in, err = h.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := h.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	h.out, h.rd = out.(*os.File), bufio.NewReader(out)
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.stop)
	line := h.next(t)
	if _, err := fmt.Sscan(line, &tcp, &udp); err != nil {
		t.Fatalf("the child's ports %q: %v", line, err)
	}
	return h, tcp, udp
}

// next is the child's next line, waited for up to 20 s.
func (h *holder) next(t *testing.T) string {
	t.Helper()
	h.out.SetReadDeadline(time.Now().Add(20 * time.Second))
	line, err := h.rd.ReadString('\n')
	if err != nil {
		t.Fatalf("the child's line: %v", err)
	}
	return strings.TrimSpace(line)
}

// stop ends the child and waits for it.
func (h *holder) stop() {
	h.in.Close()
	h.cmd.Process.Kill()
	h.cmd.Wait()
}

var loopback = []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("::1")}

// TestFindListenerNamesTheChild: the TCP listener and the UDP socket a
// child holds name the child, by PID and command name, and the CPU read
// from /proc grows by what the child burns; once the child exits, the
// read fails rather than read another process.
func TestFindListenerNamesTheChild(t *testing.T) {
	h, tcp, udp := startHolder(t)
	comm := filepath.Base(os.Args[0])
	if len(comm) > 15 {
		comm = comm[:15] // the kernel's TASK_COMM_LEN
	}
	var ls []*Listener
	for _, s := range []struct {
		network string
		port    uint16
	}{{"tcp", tcp}, {"udp", udp}} {
		l, err := FindListener(s.network, s.port, loopback)
		if err != nil {
			t.Fatalf("%s %d: %v", s.network, s.port, err)
		}
		if len(l.Procs) != 1 || l.Procs[0].PID != h.cmd.Process.Pid || l.Procs[0].Comm != comm {
			t.Fatalf("%s %d: found %+v, want pid %d (%s)", s.network, s.port, l.Procs, h.cmd.Process.Pid, comm)
		}
		if want := fmt.Sprintf("%s (pid %d)", comm, h.cmd.Process.Pid); l.String() != want {
			t.Errorf("named %q, want %q", l.String(), want)
		}
		ls = append(ls, l)
	}
	user0, sys0, err := ls[0].CPU()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(h.in, "burn\n"); err != nil {
		t.Fatal(err)
	}
	if line := h.next(t); line != "burnt" {
		t.Fatalf("burn: %q", line)
	}
	user1, sys1, err := ls[1].CPU()
	if err != nil {
		t.Fatal(err)
	}
	// The child burnt 300 ms of its CPU: 30 ticks. Half of it is enough
	// to tell a read of the child from a read of anything idle.
	if grew := (user1 + sys1) - (user0 + sys0); grew < 0.15 {
		t.Errorf("the child's CPU grew by %.2f s, burning 0.3 s", grew)
	}
	h.stop()
	if _, _, err := ls[0].CPU(); err == nil || !strings.Contains(err.Error(), "has exited") {
		t.Errorf("read an exited child: %v", err)
	}
}

// TestFindListenerRefuses: a port nothing holds, another address's
// socket, or this process's own socket leave the server unknown, each
// with its reason.
func TestFindListenerRefuses(t *testing.T) {
	if why := procSupported(); why != "" {
		t.Skip(why)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	own := uint16(ln.Addr().(*net.TCPAddr).Port)
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	free := uint16(pc.LocalAddr().(*net.UDPAddr).Port)
	pc.Close()
	for _, tc := range []struct {
		network string
		port    uint16
		addrs   []netip.Addr
		want    string
	}{
		{"tcp", own, loopback, fmt.Sprintf("TCP port %d is this process's own: its CPU is the client's too", own)},
		{"tcp", own, []netip.Addr{netip.MustParseAddr("127.0.0.2")}, fmt.Sprintf("no socket listens on TCP port %d", own)},
		{"udp", free, loopback, fmt.Sprintf("no socket is bound to UDP port %d", free)},
	} {
		l, err := FindListener(tc.network, tc.port, tc.addrs)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s %d %v: %v, %v; want %q", tc.network, tc.port, tc.addrs, l, err, tc.want)
		}
	}
	ln.Close()
	if l, err := FindListener("tcp", own, loopback); err == nil || !strings.Contains(err.Error(), "no socket listens") {
		t.Errorf("a closed listener: %v, %v", l, err)
	}
}

func TestParseSocketAddr(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"0100007F:1F90", "127.0.0.1:8080"},
		{"00000000:0050", "0.0.0.0:80"},
		{"00000000000000000000000001000000:2533", "[::1]:9523"},
		{"0000000000000000FFFF00000100007F:01BB", "[::ffff:127.0.0.1]:443"},
	} {
		got, err := parseSocketAddr(tc.in)
		if err != nil || got.String() != tc.want {
			t.Errorf("%s: %v, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "0100007F", "0100007F:", "0100007G:0050", "01007F:0050", "0100007F:10000"} {
		if got, err := parseSocketAddr(bad); err == nil {
			t.Errorf("%q read as %v", bad, got)
		}
	}
}

func TestReaches(t *testing.T) {
	v4, v6 := []netip.Addr{netip.MustParseAddr("127.0.0.1")}, []netip.Addr{netip.MustParseAddr("::1")}
	for _, tc := range []struct {
		local string
		addrs []netip.Addr
		want  bool
	}{
		{"127.0.0.1", v4, true},
		{"0.0.0.0", v4, true},
		{"::", v4, true}, // dual-stack
		{"::ffff:127.0.0.1", v4, true},
		{"0.0.0.0", v6, false},
		{"127.0.0.2", v4, false},
		{"::1", v6, true},
		{"::1", v4, false},
	} {
		if got := reaches(netip.MustParseAddr(tc.local), tc.addrs); got != tc.want {
			t.Errorf("%s reaches %v: %v", tc.local, tc.addrs, got)
		}
	}
}
